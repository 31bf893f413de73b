"""Join the table: a QR code for each seat that has no device yet (and the table's Wi-Fi), the seats that have
one (their codes hidden, so nobody else at the table can scan them; a tap shows a code again), the table's
problems, and the pads to claim.

`Alerts` is what the table screen shows over whichever screen is up: a new device asking for a seat that has
one (Allow / Refuse), a save file that takes no writes (until it takes them again), and the renewal of the table
controls' link (from the menu)."""

from __future__ import annotations

from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.contract import Message
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import (
    DANGER,
    DIM,
    GOOD,
    TARGET,
    Action,
    Chip,
    Panel,
    QRCode,
    SeatButton,
    Text,
    settle_height,
)

STORAGE_FILL = (0.45, 0.1, 0.08, 0.96)  # the storage banner: dark red, the words white


def problems(app) -> list[Message]:
    """The table's lasting problems: the save file's first, then the devices' (a pad hub missing...)."""
    out = []
    table = app.table
    if table is not None and table.storage_problem is not None:
        out.append(table.storage_problem)
    server = app.box.server
    if server is not None:
        out += list(server.problems.values())
    return out


def _key(messages: list[Message]) -> tuple:
    return tuple((m.key, repr(sorted(m.params.items()))) for m in messages)


class JoinScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.shown: set[str] = set()  # seats with a device whose code the table asked to see again

    def toggle(self, seat: str) -> None:
        """Show a claimed seat's code again (a player whose phone died, or a new phone), or hide it."""
        self.shown ^= {seat}
        self.update()

    def update(self, force: bool = False) -> None:
        app = self.app
        box = app.box
        server = box.server
        seats = server.seat_urls() if server is not None and app.view is not None else {}
        claimed = set(server.claimed()) if server is not None else set()
        self.shown &= claimed
        wifi = box.options.wifi_ssid
        found = problems(app)
        key = (tuple(seats.items()), tuple(app.connected), tuple(sorted(claimed)), tuple(sorted(self.shown)), wifi,
               server is not None and server.give_pad is not None, _key(found))
        if not self.changed("join", key, force):
            return
        self._problems(found)
        grid = self.ids.codes
        grid.clear_widgets()
        cards = []
        if wifi:
            from companion.web import qr

            cards.append((qr.wifi(wifi, box.options.wifi_password), None, app.t("ui.wifi_qr", ssid=wifi)))
        for seat, url in seats.items():
            if seat not in claimed:
                cards.append((url, seat, app.t("ui.scan_seat")))
            elif seat in self.shown:
                cards.append((url, seat, app.t("ui.scan_new_phone")))
        grid.cols = max(1, min(4, len(cards)))
        for data, seat, caption in cards:
            card = BoxLayout(orientation="vertical", spacing=dp(2))
            card.add_widget(QRCode(data=data))
            if seat:
                named = bool(app.words.names.get(seat))  # a name beside the colour may take two lines
                card.add_widget(Chip(seat, app.colour(seat), font=dp(17), size_hint_y=None,
                                     height=dp(38) if named else dp(26)))
            card.add_widget(Text(text=caption, base_font=dp(13), min_font=dp(9), ink=DIM, size_hint_y=None,
                                 height=dp(32)))
            card.seat = seat
            grid.add_widget(card)
        if not cards:
            grid.cols = 1
            every = seats and all(seat in app.connected for seat in seats)
            grid.add_widget(Text(text=app.t("ui.all_connected" if every else "ui.codes_hidden"), base_font=dp(20),
                                 ink=GOOD if every else DIM))
        status = self.ids.status
        status.clear_widgets()
        for seat in seats:
            on = seat in app.connected
            if seat in claimed:
                note = "ui.code_shown" if seat in self.shown else "ui.code_hidden_on" if on else "ui.code_hidden_away"
                button = SeatButton(seat, app.colour(seat), note=app.t(note), font=dp(16), height=dp(80))
                button.children[0].size_hint_y = 1.3  # the note: two lines
                button.children[0].base_font = dp(13)
                button.tone = "on" if seat in self.shown else "normal"
                button.bind(on_release=lambda _b, s=seat: self.toggle(s))
                status.add_widget(button)
                continue
            row = BoxLayout(orientation="vertical", size_hint_y=None, height=dp(52), padding=(dp(6), 0))
            row.seat = seat
            row.add_widget(Chip(seat, app.colour(seat), font=dp(16)))
            row.add_widget(Text(text=app.t("ui.not_connected"), base_font=dp(13), ink=DIM, halign="left",
                                size_hint_y=0.45))
            status.add_widget(row)
        pads = self.ids.pads
        pads.clear_widgets()
        settle_height(pads)
        if server is not None and server.give_pad is not None:
            pads.add_widget(Text(text=app.t("ui.give_pad"), grow=True, size_hint_y=None, base_font=dp(13),
                                 halign="left"))
            for seat in seats:
                button = Action(text=app.colour(seat), size_hint_y=None, height=TARGET, base_font=dp(15))
                button.bind(on_release=lambda _b, s=seat: server.give_pad(s))
                pads.add_widget(button)

    def _problems(self, found: list[Message]) -> None:
        box = self.ids.problems
        box.clear_widgets()
        for message in found:
            box.add_widget(Text(text=self.app.words.say(message), grow=True, size_hint_y=None, base_font=dp(14),
                                ink=DANGER, halign="left"))
        settle_height(box)


class Banner(Panel):
    """A band over the bottom of whichever screen is up; what lies under it is not pressed through it."""

    def on_touch_down(self, touch):
        return self.collide_point(*touch.pos) or super().on_touch_down(touch)


class Alerts:
    """Over every screen: a new device asking for a seat (Allow / Refuse, one row per seat), the save file that
    takes no writes (until it takes them again), and the menu's renewal of the table controls' link."""

    def __init__(self, app):
        self.app = app
        self.takeovers: ModalView | None = None
        self.banner: Banner | None = None
        self.renewal: ModalView | None = None
        self.keys: dict[str, object] = {}
        Window.bind(size=lambda *_: self._place())

    def update(self) -> None:
        self._takeovers()
        self._storage()

    def _changed(self, part: str, key: object) -> bool:
        full = (self.app.lang, key)
        if self.keys.get(part) == full:
            return False
        self.keys[part] = full
        return True

    # -- a new device asks for a seat ------------------------------------------------------------------------

    def _takeovers(self) -> None:
        server = self.app.box.server
        asked = sorted((seat, request.id) for seat, request in server.requests.items()) if server else []
        if not self._changed("takeovers", tuple(asked)):
            return
        if not asked:
            if self.takeovers is not None:
                self.takeovers.dismiss(animation=False)
                self.takeovers = None
            return
        app = self.app
        if self.takeovers is None:
            self.takeovers = ModalView(auto_dismiss=False, size_hint=(0.92, None), height=dp(200))
            self.takeovers.open(animation=False)
        content = Column(padding=dp(10), spacing=dp(8))
        for seat, request in asked:
            content.add_widget(Chip(seat, app.colour(seat), font=dp(18), size_hint_y=None, height=dp(30)))
            content.add_widget(Text(text=app.t("ui.takeover_asked", seat=seat), grow=True, size_hint_y=None,
                                    base_font=dp(17), halign="left"))
            buttons = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
            refuse = Action(text=app.t("ui.refuse"), tone="quiet")
            refuse.decision = (seat, False)
            refuse.bind(on_release=lambda _b, s=seat, r=request: self.decide(s, r, False))
            allow = Action(text=app.t("ui.allow"), tone="danger")
            allow.decision = (seat, True)
            allow.bind(on_release=lambda _b, s=seat, r=request: self.decide(s, r, True))
            buttons.add_widget(refuse)
            buttons.add_widget(allow)
            content.add_widget(buttons)
        self.takeovers.clear_widgets()
        self.takeovers.add_widget(content)
        content.bind(height=lambda _c, h: setattr(self.takeovers, "height", min(h, Window.height - dp(8)))
                     if self.takeovers is not None else None)

    def decide(self, seat: str, request: str, allow: bool) -> None:
        """The table allows the asking device (it gets the seat; the old one is told) or refuses it."""
        server = self.app.box.server
        current = server.requests.get(seat) if server is not None else None
        if current is not None and current.id == request:
            if allow:
                server.allow(seat)
            else:
                server.refuse(seat)
        self.update()

    # -- the save file takes no writes ----------------------------------------------------------------------

    def _storage(self) -> None:
        app = self.app
        table = app.table
        problem = table.storage_problem if table is not None else None
        if app.manager.current == "join":
            problem = None  # the join screen lists the problems itself, where the banner would hide its codes
        if not self._changed("storage", _key([problem]) if problem is not None else None):
            return
        if self.banner is not None:
            Window.remove_widget(self.banner)
            self.banner = None
        if problem is None:
            return
        banner = self.banner = Banner(orientation="vertical", size_hint=(None, None), padding=(dp(10), dp(4)),
                                      fill=STORAGE_FILL)
        text = Text(text=app.words.say(problem), grow=True, size_hint_y=None, base_font=dp(16))
        banner.add_widget(text)
        text.bind(height=lambda *_: self._place())
        Window.add_widget(banner)
        self._place()

    def _place(self) -> None:
        banner = self.banner
        if banner is None:
            return
        banner.width = Window.width - dp(8)
        banner.height = sum(child.height for child in banner.children) + dp(8)
        banner.pos = (dp(4), dp(4))

    # -- a new link for the table controls (the menu) ---------------------------------------------------------

    def ask_renew(self) -> None:
        app = self.app
        if app.box.server is None:
            return
        view = self.renewal = ModalView(auto_dismiss=False, size_hint=(0.8, None), height=dp(220))
        content = Column(padding=dp(12), spacing=dp(12))
        content.add_widget(Text(text=app.t("ui.renew_host_confirm"), grow=True, size_hint_y=None, base_font=dp(18)))
        buttons = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(12))
        yes = Action(text=app.t("ui.renew_host_yes"), tone="danger")
        yes.bind(on_release=lambda *_: self.renew())
        no = Action(text=app.t("ui.cancel"))
        no.bind(on_release=lambda *_: self.close_renewal())
        buttons.add_widget(yes)
        buttons.add_widget(no)
        content.add_widget(buttons)
        view.add_widget(content)
        content.bind(height=lambda _c, h: setattr(view, "height", min(h, Window.height - dp(8))))
        view.ids_yes, view.ids_no = yes, no
        view.open(animation=False)

    def renew(self) -> None:
        """A new link: every page open with the old one stops; the new one is shown here to scan or type."""
        url = self.app.box.server.renew_host()
        if self.renewal is not None:
            self.show_link(url)

    def show_link(self, url: str) -> None:
        """The table controls' new link, as a QR code and as text."""
        app = self.app
        view = self.renewal
        if view is None:
            view = self.renewal = ModalView(auto_dismiss=False)
            view.open(animation=False)
        view.clear_widgets()
        view.size_hint = (0.96, 0.96)
        content = BoxLayout(orientation="vertical", padding=dp(10), spacing=dp(6))
        row = BoxLayout(spacing=dp(10))
        row.add_widget(QRCode(data=url, size_hint_x=0.42))
        words = BoxLayout(orientation="vertical", spacing=dp(6))
        words.add_widget(Text(text=app.t("ui.host_link_new"), base_font=dp(18)))
        words.add_widget(Text(text=url, base_font=dp(16), min_font=dp(9)))
        row.add_widget(words)
        content.add_widget(row)
        close = Action(text=app.t("ui.close"), size_hint_y=None, height=dp(56))
        close.bind(on_release=lambda *_: self.close_renewal())
        content.add_widget(close)
        view.add_widget(content)
        view.ids_close, view.url = close, url

    def close_renewal(self) -> None:
        if self.renewal is not None:
            self.renewal.dismiss(animation=False)
            self.renewal = None


class Column(BoxLayout):
    """A vertical box as tall as what it holds."""

    def __init__(self, **kwargs):
        super().__init__(orientation="vertical", size_hint_y=None, **kwargs)
        self.bind(minimum_height=self.setter("height"))
