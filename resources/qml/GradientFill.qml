// A style gradient filling a (rounded) rectangle: `linear` at any angle, `radial` from the
// centre. Qt Quick Shapes draws it on every scene graph (software and OpenGL); a Rectangle's
// own gradient is only horizontal or vertical.
//
// Angle convention as the phone's (PrototypeRenderModel.kt `prototypeLinearGradientLine`):
// degrees clockwise from "toward the end edge", 0° runs left to right, 90° top to bottom
// (`dy = sin(radians)` in screen coordinates). The gradient line passes through the centre and is
// as long as the box projected on it, so the first and last colours land exactly on the corners
// (45°: top-left is the first stop, bottom-right the last). Radial: centred, radius
// `hypot(width, height) / 2` (SC `prototypeGradientBrush`: RadialGradientShader), so the last
// colour lands on the corners.
import QtQuick
import QtQuick.Shapes

Shape {
    id: g

    property var grad: null           // {type, angle, stops: [{color, position}]} (2..4 stops)
    property real topLeftRadius: 0
    property real topRightRadius: 0
    property real bottomRightRadius: 0
    property real bottomLeftRadius: 0

    readonly property bool radial: grad !== null && grad.type === "radial"
    readonly property var stopList: grad ? grad.stops : []
    readonly property real rad: (grad && grad.angle ? grad.angle : 0) * Math.PI / 180
    readonly property real dx: Math.cos(rad)
    readonly property real dy: Math.sin(rad)  // clockwise: screen y grows downwards
    readonly property real half: (Math.abs(width * dx) + Math.abs(height * dy)) / 2

    // The n-th stop; missing ones repeat the last (a stop list has 2 to 4 entries).
    function stopAt(i) {
        var n = stopList.length;
        return n === 0 ? {color: "transparent", position: 1} : stopList[Math.min(i, n - 1)];
    }

    preferredRendererType: Shape.CurveRenderer  // antialiased curved corners on OpenGL

    ShapePath {
        strokeWidth: -1
        strokeColor: "transparent"
        fillGradient: g.radial ? radialGradient : linearGradient
        PathRectangle {
            x: 0
            y: 0
            width: g.width
            height: g.height
            topLeftRadius: g.topLeftRadius
            topRightRadius: g.topRightRadius
            bottomRightRadius: g.bottomRightRadius
            bottomLeftRadius: g.bottomLeftRadius
        }
    }

    LinearGradient {
        id: linearGradient
        x1: g.width / 2 - g.dx * g.half
        y1: g.height / 2 - g.dy * g.half
        x2: g.width / 2 + g.dx * g.half
        y2: g.height / 2 + g.dy * g.half
        GradientStop { position: g.stopAt(0).position; color: g.stopAt(0).color }
        GradientStop { position: g.stopAt(1).position; color: g.stopAt(1).color }
        GradientStop { position: g.stopAt(2).position; color: g.stopAt(2).color }
        GradientStop { position: g.stopAt(3).position; color: g.stopAt(3).color }
    }
    RadialGradient {
        id: radialGradient
        centerX: g.width / 2
        centerY: g.height / 2
        centerRadius: Math.sqrt(g.width * g.width + g.height * g.height) / 2
        focalX: centerX
        focalY: centerY
        focalRadius: 0
        GradientStop { position: g.stopAt(0).position; color: g.stopAt(0).color }
        GradientStop { position: g.stopAt(1).position; color: g.stopAt(1).color }
        GradientStop { position: g.stopAt(2).position; color: g.stopAt(2).color }
        GradientStop { position: g.stopAt(3).position; color: g.stopAt(3).color }
    }
}
