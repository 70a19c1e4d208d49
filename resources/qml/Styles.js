// A node's resolved style as a JavaScript object, converted once per distinct style and shared
// by every delegate whose node has it. Reading `n.st` converts the Python dict (about 40 fields)
// anew for each delegate, about a third of what a plain delegate cost; the nodes on one screen
// have only a few distinct styles. The key (`n.styleKey`, from the controller's
// `resolved_style`) names one style's value for the whole process, so an entry never goes
// stale; the cache is only emptied when it grows large. Nothing may modify a style object.
.pragma library

var cache = ({});
var size = 0;

function of(n) {
    var key = n.styleKey;
    if (!key)
        return n.st;
    var style = cache[key];
    if (style === undefined) {
        if (size >= 4096) {
            cache = ({});
            size = 0;
        }
        style = n.st;
        cache[key] = style;
        size += 1;
    }
    return style;
}
