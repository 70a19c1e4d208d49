"""Assets against AutoMobile's asset contract: type by signature, size by type, ids, count."""

from __future__ import annotations

import pytest

from studio.library.assets import AssetError, check_asset, check_assets, sniff
from tests.library.helpers import ELF, JPEG, TTF, png

WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 32
OTF = b"OTTO\x00\x0a\x00\x80" + b"\x00" * 64


def test_types_are_read_from_the_bytes() -> None:
    assert sniff(png()) == "image/png"
    assert sniff(JPEG) == "image/jpeg"
    assert sniff(WEBP) == "image/webp"
    assert sniff(TTF) == "font/ttf"
    assert sniff(b"true" + b"\x00" * 16) == "font/ttf"
    assert sniff(OTF) == "font/otf"
    assert sniff(ELF) is None
    assert sniff(b"<svg xmlns='http://www.w3.org/2000/svg'/>") is None


def test_extension_must_match_the_signature() -> None:
    assert check_asset("logo", png(), "png").file_name == "logo.png"
    assert check_asset("photo", JPEG, "jpeg").file_name == "photo.jpg"
    assert check_asset("face", TTF, "otf").mime == "font/ttf"  # TrueType-flavoured .otf
    with pytest.raises(AssetError, match=r"\.webp file holds image/png"):
        check_asset("logo", png(), "webp")
    with pytest.raises(AssetError, match=r"extension \.gif is not allowed"):
        check_asset("anim", png(), "gif")


def test_size_limits_by_type() -> None:
    check_asset("big", png()[:8] + b"\x00" * (4 * 1024 * 1024 - 8))
    with pytest.raises(AssetError, match="image/png allows 4194304"):
        check_asset("big", png()[:8] + b"\x00" * (4 * 1024 * 1024))
    with pytest.raises(AssetError, match="font/otf allows 2097152"):
        check_asset("font", OTF + b"\x00" * (2 * 1024 * 1024))


@pytest.mark.parametrize("bad", ["", "../x", "a/b", ".hidden", "a.", "con", "x" * 257, "é"])
def test_unsafe_ids_refused(bad: str) -> None:
    with pytest.raises(AssetError):
        check_asset(bad, png())


def test_count_total_and_case_collisions() -> None:
    check_assets({f"a{i}": png() for i in range(32)})
    with pytest.raises(AssetError, match="33 assets; at most 32"):
        check_assets({f"a{i}": png() for i in range(33)})
    big = png()[:8] + b"\x01" * (4 * 1024 * 1024 - 8)
    with pytest.raises(AssetError, match="at most 16777216"):
        check_assets({f"b{i}": big for i in range(5)})
    with pytest.raises(AssetError, match="differ only in case"):
        check_assets({"Logo": png(), "logo": png()})
