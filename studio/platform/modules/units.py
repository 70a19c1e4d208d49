"""The `units` module: `units.convert` between units of length, mass, temperature, volume, speed.

Hand-written rather than a units library (pint): the table is small, exact (fractions, so
0.1 m -> cm gives 10, not 10.000000000000002) and needs no dependency with its own registry file.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from studio.platform.module import (
    JSON,
    CallContext,
    PlatformCall,
    PlatformError,
    PlatformModule,
    numeric,
)
from studio.platform.module import object_schema as obj

# quantity -> unit -> factor to the quantity's base unit (m, kg, l, m/s). Exact where the
# definition is exact (international yard and pound, US customary volumes, knot = 1852 m/h).
LINEAR: dict[str, dict[str, Fraction]] = {
    "length": {
        "m": Fraction(1),
        "km": Fraction(1000),
        "cm": Fraction(1, 100),
        "mm": Fraction(1, 1000),
        "mi": Fraction("1609.344"),
        "yd": Fraction("0.9144"),
        "ft": Fraction("0.3048"),
        "in": Fraction("0.0254"),
    },
    "mass": {
        "kg": Fraction(1),
        "g": Fraction(1, 1000),
        "mg": Fraction(1, 1_000_000),
        "t": Fraction(1000),
        "lb": Fraction("0.45359237"),
        "oz": Fraction("0.45359237") / 16,
    },
    "volume": {
        "l": Fraction(1),
        "ml": Fraction(1, 1000),
        "m3": Fraction(1000),
        "gal": Fraction("3.785411784"),
        "qt": Fraction("3.785411784") / 4,
        "pt": Fraction("3.785411784") / 8,
        "cup": Fraction("3.785411784") / 16,
        "floz": Fraction("3.785411784") / 128,
    },
    "speed": {
        "m/s": Fraction(1),
        "km/h": Fraction(1000, 3600),
        "mph": Fraction("0.44704"),
        "kn": Fraction(1852, 3600),
        "ft/s": Fraction("0.3048"),
    },
}
TEMPERATURE = ("C", "F", "K")

QUANTITY: dict[str, str] = {u: q for q, table in LINEAR.items() for u in table}
QUANTITY.update(dict.fromkeys(TEMPERATURE, "temperature"))
UNITS: list[str] = list(QUANTITY)

SIGNIFICANT_DIGITS = 12
MAX_MAGNITUDE = 1e15


def _to_kelvin(value: Fraction, unit: str) -> Fraction:
    if unit == "C":
        return value + Fraction("273.15")
    if unit == "F":
        return (value - 32) * Fraction(5, 9) + Fraction("273.15")
    return value


def _from_kelvin(kelvin: Fraction, unit: str) -> Fraction:
    if unit == "C":
        return kelvin - Fraction("273.15")
    if unit == "F":
        return (kelvin - Fraction("273.15")) * Fraction(9, 5) + 32
    return kelvin


def convert(value: float, source: str, target: str) -> float:
    """`value` in `source` expressed in `target`, to 12 significant digits."""
    if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise PlatformError(
            f"units.convert: value must be a finite number within ±{MAX_MAGNITUDE:g}"
        )
    if source not in QUANTITY:
        raise PlatformError(f"units.convert: unknown unit {source!r}")
    if target not in QUANTITY:
        raise PlatformError(f"units.convert: unknown unit {target!r}")
    quantity, other = QUANTITY[source], QUANTITY[target]
    if quantity != other:
        raise PlatformError(
            f"units.convert: cannot convert {quantity} ({source}) to {other} ({target})"
        )
    exact = Fraction(value)
    if quantity == "temperature":
        kelvin = _to_kelvin(exact, source)
        if kelvin < 0:
            raise PlatformError(f"units.convert: {value:g} {source} is below absolute zero")
        out = _from_kelvin(kelvin, target)
    else:
        table = LINEAR[quantity]
        out = exact * table[source] / table[target]
    return float(f"{float(out):.{SIGNIFICANT_DIGITS}g}")


async def _convert(args: JSON, context: CallContext) -> Any:
    source, target = args["from"], args["to"]
    value = convert(float(args["value"]), source, target)
    return {"value": value, "unit": target, "quantity": QUANTITY[target]}


def module() -> PlatformModule:
    unit = {"type": "string", "enum": UNITS}
    call = PlatformCall(
        name="convert",
        description=(
            "Converts a value between units of the same quantity: length (m km cm mm mi yd ft in), "
            "mass (kg g mg t lb oz), temperature (C F K), volume (l ml m3 gal qt pt cup floz), "
            "speed (m/s km/h mph kn ft/s)."
        ),
        args=obj(
            {
                "value": numeric("Value"),
                "from": {**unit, "description": "From unit", "examples": ["m"]},
                "to": {**unit, "description": "To unit", "examples": ["ft"]},
            }
        ),
        result=obj(
            {
                "value": {"type": "number", "description": "Converted value"},
                "unit": {"type": "string", "description": "Unit"},
                "quantity": {"type": "string", "description": "Quantity"},
            }
        ),
        handler=_convert,
    )
    return PlatformModule(
        name="units", description="Unit conversion (pure, offline).", calls={"convert": call}
    )
