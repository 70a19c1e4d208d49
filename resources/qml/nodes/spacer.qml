// spacer: empty space sized by its style (a weight takes the space left).
import QtQuick

Item {
    implicitWidth: 0
    implicitHeight: 0
}
