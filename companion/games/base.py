"""The contract's names where the games have always imported them: the vocabulary itself lives outside the games,
in companion/contract.py, so that the catalogue, the table and every device use it without loading a game."""

from companion.contract import *  # noqa: F403
from companion.contract import __all__  # noqa: F401
