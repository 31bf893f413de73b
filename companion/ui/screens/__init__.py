"""The screens of the touchscreen app, one module per screen (their layouts: kv/<name>.kv)."""

from __future__ import annotations

from companion.ui.screens.answer import AnswerScreen, CoverScreen
from companion.ui.screens.board import BoardScreen
from companion.ui.screens.confirm import ConfirmScreen
from companion.ui.screens.correct import CorrectScreen
from companion.ui.screens.end import EndScreen
from companion.ui.screens.history import HistoryScreen
from companion.ui.screens.join import JoinScreen
from companion.ui.screens.menu import MenuScreen
from companion.ui.screens.newgame import NewGameScreen
from companion.ui.screens.rules import RulesScreen
from companion.ui.screens.stats import StatsScreen

# Every screen of the app, by the name its layout (kv/<name>.kv) and the app know it: the one list of them.
SCREEN_CLASSES = {
    "board": BoardScreen, "answer": AnswerScreen, "cover": CoverScreen, "confirm": ConfirmScreen,
    "join": JoinScreen, "newgame": NewGameScreen, "menu": MenuScreen, "history": HistoryScreen, "end": EndScreen,
    "rules": RulesScreen, "correct": CorrectScreen, "stats": StatsScreen,
}
