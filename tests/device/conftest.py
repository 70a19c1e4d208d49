"""The phone fixtures (`phone`, `fresh_phone`, `start_ctrlproxy`) live in tests/device/fixtures.py, a
plugin registered in tests/conftest.py so that every test directory shares one phone per session;
the names below are re-exported for the modules that import them from here."""

from tests.device.fixtures import ALL_CAPABILITIES, PHONE_SRC, Phone, StandIn

__all__ = ["ALL_CAPABILITIES", "PHONE_SRC", "Phone", "StandIn"]
