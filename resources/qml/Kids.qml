// The delegates of a node's children that the layout instantiates (`d.n.kids`: those on screen
// or about to scroll into view), each placed by its own layout results. Children are made and
// dropped one by one as the list changes (a scroll moving), stacked in the nodes' order. A node
// with a `visibleWhen` gets a MotionDelegate (its transitions), any other the lighter
// NodeDelegate; a child reads its composition locals from `locals` here. An anchored child is
// made in an anchor layer instead (AnchoredKid.qml).
import QtQuick

Item {
    id: host
    // as large as the content it hosts children in (edit-mode picking walks the items by bounds)
    width: parent ? parent.width : 0
    height: parent ? parent.height : 0
    readonly property var locals: d.locals
    property var made: ({})
    readonly property var list: d.n ? d.n.kids : []
    onListChanged: sync()
    Component.onCompleted: sync()
    // Anchored children live in a layer, not in this item: they go with it.
    Component.onDestruction: {
        for (var k in made)
            if (made[k] && made[k].authored === host) made[k].destroy();
    }
    Component {
        id: kid
        NodeDelegate {}
    }
    Component {
        id: moving
        MotionDelegate {}
    }
    Component {
        id: anchored
        AnchoredKid {}
    }
    // An anchored child is drawn in the nearest anchor layer above (a dialog's or sheet's
    // overlay), else the window's (AnchoredKid.qml).
    function anchorLayerFor() {
        for (var p = host.parent; p; p = p.parent)
            if (p.anchorLayer === true) return p;
        return anchorLayerHost;
    }
    function sync() {
        var keep = {};
        for (var i = 0; i < list.length; ++i) {
            var node = list[i];
            var key = node.nodeKey;
            var item = made[key];
            if (!item) {
                // stacked in the nodes' order however late it is made (`z`: its index)
                // incubated (as a Repeater does), so a deep tree is not cut off by QQmlComponent's
                // nested-creation limit
                if (node.layered === 1)
                    item = anchored.incubateObject(anchorLayerFor(), {node: node, z: 100 + node.order,
                        authored: host, locals: Qt.binding(function() { return d.locals; })},
                        Qt.Synchronous).object;
                else
                    item = (node.conditional === 1 ? moving : kid).incubateObject(host,
                        {n: node, z: node.order}, Qt.Synchronous).object;
            }
            keep[key] = item;
        }
        for (var k in made)
            if (!keep[k]) made[k].destroy();
        made = keep;
    }
}
