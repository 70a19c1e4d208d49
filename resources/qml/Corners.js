// Material 3 corner families of the theme: `preview.shapes` (the theme's extraSmall..extraLarge in
// dp, from its `shapes.corner` preset, TH `prototypeShapes`), else the stock M3 scale (4, 8, 12,
// 16, 28). Components take their family as Compose's defaults do: chips small, cards medium, FABs
// large (small FAB medium, large FAB extraLarge), dialogs extraLarge, snackbars and text fields
// extraSmall.
.pragma library

var STOCK = {none: 0, extraSmall: 4, small: 8, medium: 12, large: 16, extraLarge: 28, full: 9999};

function of(preview, token) {
    var shapes = preview.shapes;
    if (shapes && shapes[token] !== undefined)
        return shapes[token];
    return STOCK[token] === undefined ? 0 : STOCK[token];
}
