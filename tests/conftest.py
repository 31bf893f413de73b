"""Fixtures shared by several test modules."""

from __future__ import annotations

import pytest
import toy_game
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.catalogue import catalogue
from companion.games import GAMES


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory for one test: pins the test drives from its own threads."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def lucky_die(monkeypatch):
    """Lucky Die, the game only the tests know, in the registry (and its words in the catalogue) for one test."""
    monkeypatch.setitem(GAMES, toy_game.NAME, toy_game)
    catalogue.cache_clear()
    yield toy_game
    monkeypatch.delitem(GAMES, toy_game.NAME)
    catalogue.cache_clear()
