// spacer: empty space sized by its style (weight fills the remaining space).
import QtQuick

Item {
    implicitWidth: 0
    implicitHeight: 0
}
