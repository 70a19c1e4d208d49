// An elevation shadow as the phone draws it: an ambient shadow around the node and a spot shadow
// from the light above the screen's top middle, which falls further down the lower the node sits
// (and further out to the side), both with Skia's smooth falloff and tinted by `color`. The model
// and its sources are in studio/preview/shadow.py; each shadow is a nine-patch image from the
// `shadow` image provider (one small texture per elevation, radius and colour, any node size),
// so it draws alike on the software and OpenGL scene graphs. Made only for a node with an
// elevation (StyleBox's Loader, elevated components).
import QtQuick
import QtQuick.Window

Item {
    id: s
    property real elevation: 0
    property real radius: 0
    property color color: "#000000"  // Compose's DefaultShadowColor
    // Image pixels per dp (the BorderImages are drawn that much larger, then scaled down).
    readonly property real ratio: Math.max(1, Screen.devicePixelRatio || 1)
    readonly property var m: elevation > 0 && width > 0 && height > 0
        ? preview.shadow(elevation, radius, width, height, color, ratio) : ({})
    // The node's centre on the phone's screen: the spot shadow moves by zr times its distance
    // from the light. The shadow follows every ancestor's x and y up to the screen (a layout
    // pass, a scroll: a scroll's content item moves) and its own size; a delegate is parented
    // after it is complete, so while the chain does not reach the screen its top's parentChanged
    // walks it again. The links are plain signal connections, dropped when the shadow goes.
    property point centre: Qt.point(0, 0)
    property Item screenItem: null
    property var links: []
    function detach() {
        for (var i = 0; i < links.length; ++i)
            links[i][0].disconnect(links[i][1]);
        links = [];
    }
    function attach() {
        detach();
        var p = s.parent, made = [];
        for (; p; p = p.parent) {
            if (p.objectName === "screen")
                break;
            made.push([p.xChanged, s.place], [p.yChanged, s.place]);
            if (!p.parent) {
                made.push([p.parentChanged, s.attach]);
                break;
            }
        }
        for (var i = 0; i < made.length; ++i)
            made[i][0].connect(made[i][1]);
        links = made;
        screenItem = p && p.objectName === "screen" ? p : null;
        place();
    }
    function place() {
        if (screenItem)
            centre = s.mapToItem(screenItem, width / 2, height / 2);
    }
    Component.onCompleted: attach()
    Component.onDestruction: detach()
    onWidthChanged: place()
    onHeightChanged: place()
    BorderImage {
        readonly property var l: s.m.ambient
        visible: !!l
        x: l ? -l.outset : 0
        y: l ? -l.outset : 0
        width: l ? (s.width + 2 * l.outset) * s.ratio : 0
        height: l ? (s.height + 2 * l.outset) * s.ratio : 0
        scale: 1 / s.ratio
        transformOrigin: Item.TopLeft
        source: l ? l.source : ""
        border { left: l ? l.border : 0; right: l ? l.border : 0; top: l ? l.border : 0; bottom: l ? l.border : 0 }
    }
    BorderImage {
        readonly property var l: s.m.spot
        readonly property real w: l ? s.width * l.scale + 2 * l.outset : 0
        readonly property real h: l ? s.height * l.scale + 2 * l.outset : 0
        visible: !!l
        x: l ? (s.width - w) / 2 + s.m.zr * (s.centre.x - s.m.lightX) : 0
        y: l ? (s.height - h) / 2 + s.m.zr * (s.centre.y - s.m.lightY) : 0
        width: w * s.ratio
        height: h * s.ratio
        scale: 1 / s.ratio
        transformOrigin: Item.TopLeft
        source: l ? l.source : ""
        border { left: l ? l.border : 0; right: l ? l.border : 0; top: l ? l.border : 0; bottom: l ? l.border : 0 }
    }
}
