// Compose's measuring, for the layout delegates: a node's own constraints (sizeIn, width/height,
// fill, wrap, aspectRatio), Row/Column measuring (RowColumnMeasurePolicy: children measured in
// order against the space left, then weights, then the arrangement) and Box measuring. Sizes are
// dp; Infinity is an unbounded constraint.
.pragma library

// Material's minimumInteractiveComponentSize.
var touchTarget = 48;

// Node types that own their taps, so the node-level 48 dp reserve is not added for them
// (SC `prototypeNodeModifier`: textField, PROTOTYPE_MODAL_ROLES, PROTOTYPE_COMPONENT_ROLES,
// PROTOTYPE_SELECTION_ROLES, PROTOTYPE_MATERIAL_ROLES). Their own targets come from the
// component (`reservesTouchTarget`).
var reserveRoles = ["textField", "dialog", "snackbar", "bottomSheet", "switch", "checkbox", "button",
    "slider", "chip", "radioGroup", "listItem", "iconButton", "fab", "segmentedButton", "timePicker",
    "datePicker"];

function clamp(v, lo, hi) {
    return Math.max(lo, Math.min(hi, v));
}

// One axis of SC `authoredSizeModifier`: sizeIn(min, max) constrained into the incoming
// constraints, then width(dp) / fillMax / wrapContent. Returns [min, max, wraps].
function axis(cmin, cmax, smin, smax, dim, fill, weighted) {
    var lo = cmin, hi = cmax;
    var sMax = smax >= 0 ? smax : Infinity;
    if (smax >= 0) hi = clamp(smax, cmin, cmax);
    if (smin >= 0) lo = clamp(Math.min(smin, sMax), cmin, cmax);
    if (dim >= 0) {
        var v = clamp(dim, lo, hi);
        return [v, v, false];
    }
    if (fill) return isFinite(hi) ? [hi, hi, false] : [lo, hi, false];
    // A weighted child's main axis is not wrapped: it takes the weighted space.
    return [lo, hi, !weighted];
}

// Modifier.aspectRatio (matchHeightConstraintsFirst = false): the first of max width, max
// height, min width, min height that gives a size within the constraints, then the same
// without the constraints.
function aspectBox(b, ratio) {
    var minW = b.wrapW ? 0 : b.minW, minH = b.wrapH ? 0 : b.minH;
    function fits(w, h, enforce) {
        if (!(w > 0 && h > 0)) return false;
        return !enforce || (w >= minW && w <= b.maxW && h >= minH && h <= b.maxH);
    }
    for (var pass = 0; pass < 2; ++pass) {
        var enforce = pass === 0;
        var tries = [];
        if (isFinite(b.maxW)) tries.push([b.maxW, b.maxW / ratio]);
        if (isFinite(b.maxH)) tries.push([b.maxH * ratio, b.maxH]);
        tries.push([minW, minW / ratio]);
        tries.push([minH * ratio, minH]);
        for (var i = 0; i < tries.length; ++i) {
            if (fits(tries[i][0], tries[i][1], enforce))
                return {minW: tries[i][0], maxW: tries[i][0], minH: tries[i][1], maxH: tries[i][1], wrapW: false, wrapH: false};
        }
    }
    return b;
}

function ownBox(c, st, fillW, fillH) {
    var w = axis(c.minW, c.maxW, st.minW, st.maxW, st.w, fillW, c.axis === 1);
    var h = axis(c.minH, c.maxH, st.minH, st.maxH, st.h, fillH, c.axis === 2);
    var b = {minW: w[0], maxW: w[1], wrapW: w[2], minH: h[0], maxH: h[1], wrapH: h[2]};
    return st.aspect > 0 ? aspectBox(b, st.aspect) : b;
}

// The padding a `safeAreaPadding` adds: the union of its inset types on its edges, less what an
// ancestor consumed; and what it consumes for its own children.
function safePadding(spec, insets, consumed) {
    var sides = ["top", "bottom", "start", "end"];
    var keys = {top: "t", bottom: "b", start: "s", end: "e"};
    var used = consumed || {t: 0, b: 0, s: 0, e: 0};
    var out = {t: 0, b: 0, s: 0, e: 0, consumed: {t: used.t, b: used.b, s: used.s, e: used.e}};
    var types = spec.types || [], edges = spec.edges || [];
    for (var i = 0; i < sides.length; ++i) {
        var side = sides[i], k = keys[side];
        if (edges.indexOf(side) < 0) continue;
        var most = 0;
        for (var j = 0; j < types.length; ++j) {
            var inset = insets ? insets[types[j]] : null;
            if (inset && inset[side] > most) most = inset[side];
        }
        out[k] = Math.max(0, most - used[k]);
        out.consumed[k] = Math.max(used[k], most);
    }
    return out;
}

// The children of a Repeater that take part in the layout, in order.
function flowItems(rep) {
    var out = [];
    for (var i = 0; i < rep.count; ++i) {
        var it = rep.itemAt(i);
        if (it && it.inFlow) out.push(it);
    }
    return out;
}

// Prototype arrangement (AR): the gaps are reserved first, the base arrangement spreads what
// is left, then each child moves by its gaps. Returns the start of each child.
function arrange(total, sizes, gap, arrangement) {
    var n = sizes.length, sum = 0, i;
    for (i = 0; i < n; ++i) sum += sizes[i];
    var free = total - gap * Math.max(0, n - 1) - sum;
    var out = [], pos = 0, between = 0;
    if (arrangement === "center") pos = free / 2;
    else if (arrangement === "end") pos = free;
    else if (arrangement === "spaceBetween") between = n > 1 ? free / (n - 1) : 0;
    else if (arrangement === "spaceAround") { between = n > 0 ? free / n : 0; pos = between / 2; }
    else if (arrangement === "spaceEvenly") { between = free / (n + 1); pos = between; }
    for (i = 0; i < n; ++i) {
        out.push(pos + gap * i);
        pos += sizes[i] + between;
    }
    return out;
}

function align(space, size, where) {
    return where === "center" ? (space - size) / 2 : where === "end" ? space - size : 0;
}

// Row / Column (RowColumnMeasurePolicy). `d` is the container's delegate (its content
// constraints cMinW..cMaxH); returns [width, height] and places the children.
function measureLinear(vertical, d, items, gap, arrangement, cross) {
    var minMain = vertical ? d.cMinH : d.cMinW, maxMain = vertical ? d.cMaxH : d.cMaxW;
    var minCross = vertical ? d.cMinW : d.cMinH, maxCross = vertical ? d.cMaxW : d.cMaxH;
    var weightAxis = vertical ? 2 : 1;
    var fixed = 0, crossSize = 0, totalWeight = 0, weighted = [], lastGap = 0, i, k;
    for (i = 0; i < items.length; ++i) {
        k = items[i];
        if (k.weight > 0) {
            totalWeight += k.weight;
            weighted.push(k);
            continue;
        }
        var remaining = isFinite(maxMain) ? Math.max(0, maxMain - fixed) : Infinity;
        if (vertical) k.constrain(0, maxCross, 0, remaining, 0);
        else k.constrain(0, remaining, 0, maxCross, 0);
        var size = vertical ? k.slotH : k.slotW;
        lastGap = isFinite(remaining) ? Math.max(0, Math.min(gap, remaining - size)) : gap;
        fixed += size + lastGap;
        crossSize = Math.max(crossSize, vertical ? k.slotW : k.slotH);
    }
    var weightedSpace = 0;
    if (weighted.length === 0) {
        fixed -= lastGap;
    } else {
        var target = isFinite(maxMain) ? maxMain : minMain;
        var spacing = gap * (weighted.length - 1);
        var unit = Math.max(0, target - fixed - spacing) / totalWeight;
        for (i = 0; i < weighted.length; ++i) {
            k = weighted[i];
            var share = unit * k.weight;
            if (vertical) k.constrain(0, maxCross, share, share, weightAxis);
            else k.constrain(share, share, 0, maxCross, weightAxis);
            weightedSpace += vertical ? k.slotH : k.slotW;
            crossSize = Math.max(crossSize, vertical ? k.slotW : k.slotH);
        }
        weightedSpace = clamp(weightedSpace + spacing, 0, isFinite(maxMain) ? maxMain - fixed : Infinity);
    }
    // A weighted child makes a bounded row/column take all of its main axis.
    var main = totalWeight > 0 && isFinite(maxMain) ? maxMain : Math.max(fixed + weightedSpace, minMain);
    main = Math.min(main, maxMain);
    crossSize = clamp(crossSize, minCross, maxCross);
    var sizes = [];
    for (i = 0; i < items.length; ++i) sizes.push(vertical ? items[i].slotH : items[i].slotW);
    var starts = arrange(main, sizes, gap, arrangement);
    for (i = 0; i < items.length; ++i) {
        k = items[i];
        var slotCross = vertical ? k.slotW : k.slotH;
        var at = align(crossSize, slotCross, cross);
        if (vertical) {
            k.x = at + (k.slotW - k.width) / 2;
            k.y = starts[i] + (k.slotH - k.height) / 2;
        } else {
            k.x = starts[i] + (k.slotW - k.width) / 2;
            k.y = at + (k.slotH - k.height) / 2;
        }
    }
    return vertical ? [crossSize, main] : [main, crossSize];
}

// Box (BoxMeasurePolicy): every child measured with the box's maximum (loose), the box as large
// as its largest child, each child placed by the box's content alignment.
function measureBox(d, items, h, v) {
    var w = 0, hh = 0, i, k;
    for (i = 0; i < items.length; ++i) {
        k = items[i];
        k.constrain(0, d.cMaxW, 0, d.cMaxH, 0);
        w = Math.max(w, k.slotW);
        hh = Math.max(hh, k.slotH);
    }
    w = clamp(w, d.cMinW, d.cMaxW);
    hh = clamp(hh, d.cMinH, d.cMaxH);
    for (i = 0; i < items.length; ++i) {
        k = items[i];
        k.x = align(w, k.slotW, h) + (k.slotW - k.width) / 2;
        k.y = align(hh, k.slotH, v) + (k.slotH - k.height) / 2;
    }
    return [w, hh];
}
