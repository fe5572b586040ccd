"""Test helpers for pytest-rwe users and its own tests: a fake vendor server."""

from pytest_rwe.testing.fake_server import FakeServer, Fault, RecordedRequest

__all__ = ["FakeServer", "Fault", "RecordedRequest"]
