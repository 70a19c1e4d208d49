// image: an asset (light/dark pair aware) drawn at its pixel size on the simulated screen
// density, decoded down to the space available as the phone decodes it (IM
// `PrototypeImageContent`, `prototypeImageSampleSize`); an axis the style sizes is filled, a
// wrapped axis keeps the image's shape. A missing asset is a 24 dp surfaceVariant box with the
// broken-image glyph (IM `defaultMinSize(24.dp, 24.dp)`, TH `prototypePlaceholderColor`).
import QtQuick
import QtQuick.Window
import ".."

Item {
    id: root
    // The constraints the layout measured it with (Infinity: unbounded).
    readonly property real minW: d.g.cMinW || 0
    readonly property real maxW: d.g.cMaxW === undefined ? Infinity : d.g.cMaxW
    readonly property real minH: d.g.cMinH || 0
    readonly property real maxH: d.g.cMaxH === undefined ? Infinity : d.g.cMaxH
    readonly property string url: {
        preview.themeRev;
        return preview.asset(d.p.asset);
    }
    readonly property bool ready: url !== "" && img.status === Image.Ready
    readonly property bool sizedW: d.st.fillW || d.st.w >= 0
    readonly property bool sizedH: d.st.fillH || d.st.h >= 0
    // The decoded size in dp: the source px halved while both halves still cover the target
    // (the constraint, else the screen, in px rounded up to a power of two), over the density.
    readonly property var natural: {
        if (!ready) return ({w: 24, h: 24});
        var density = preview.density;
        function bucket(v) { var b = 1; while (b < v && b < 16384) b *= 2; return b; }
        var tw = bucket(Math.round((isFinite(maxW) ? maxW : preview.deviceWidth) * density));
        var th = bucket(Math.round((isFinite(maxH) ? maxH : preview.deviceHeight) * density));
        var w = img.sourceSize.width, h = img.sourceSize.height, s = 1;
        while (s < 64 && ((Math.floor(w / s) / 2 >= tw && Math.floor(h / s) / 2 >= th)
            || Math.floor(w / s) * Math.floor(h / s) > 4 * 1024 * 1024)) s *= 2;
        return ({w: Math.floor(w / s) / density, h: Math.floor(h / s) / density});
    }
    // A wrapped axis: the natural size, scaled down (keeping the shape) to fit the constraints,
    // or following the sized axis.
    readonly property real fit: Math.min(1, maxW / Math.max(1e-6, natural.w), maxH / Math.max(1e-6, natural.h))
    implicitWidth: !ready ? 24 : sizedH && !sizedW ? minH * natural.w / Math.max(1e-6, natural.h) : natural.w * fit
    implicitHeight: !ready ? 24 : sizedW && !sizedH ? minW * natural.h / Math.max(1e-6, natural.w) : natural.h * fit
    // `cornerRadius` clips the image to the node's rounded shape: drawn by the `rounded` image
    // provider into the box (the software scene graph clips to rectangles only).
    // An image lying in an ancestor's rounded clip is cut round there too (`g.clip`,
    // studio/preview/clipshape.py: a card's hero image).
    readonly property var clipped: d.g.clip || null
    readonly property bool rounded: (d.st.hasRadius === true && (d.cornerRadius > 0 || d.st.rTL > 0
        || d.st.rTR > 0 || d.st.rBR > 0 || d.st.rBL > 0)) || clipped !== null
    Image {
        id: shaped
        anchors.fill: parent
        visible: root.rounded && root.ready
        cache: false
        source: !root.rounded || !root.ready || width <= 0 || height <= 0 ? ""
            : preview.roundedImage(JSON.stringify({
                url: root.url, w: width, h: height, scale: d.p.contentScale || "fit",
                // start/end corners by screen side (right to left topStart is the top right)
                radii: (preview.rtl ? [d.st.rTR, d.st.rTL, d.st.rBL, d.st.rBR]
                        : [d.st.rTL, d.st.rTR, d.st.rBR, d.st.rBL]).map(function(r, i) {
                            var own = !d.st.hasRadius ? 0 : r >= 0 ? r : d.cornerRadius;
                            return root.clipped ? Math.max(own, root.clipped[i]) : own; }),
                ratio: Screen.devicePixelRatio || 1}))
    }
    Image {
        id: img
        anchors.fill: parent
        visible: root.url !== "" && !root.rounded
        source: root.url
        asynchronous: false
        fillMode: d.p.contentScale === "crop" ? Image.PreserveAspectCrop
            : d.p.contentScale === "fill" ? Image.Stretch : Image.PreserveAspectFit
        clip: true
    }
    Rectangle {
        anchors.fill: parent
        visible: !root.ready
        color: d.st.bg !== "" ? "transparent" : preview.colors.surfaceVariant
        MIcon {
            anchors.centerIn: parent
            name: "broken_image"
            size: 24
            color: preview.colors.onSurfaceVariant
        }
    }
}
