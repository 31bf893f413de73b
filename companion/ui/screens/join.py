"""Join the table: a QR code for each seat without a phone (and the table's Wi-Fi), who is connected, and the
pads to claim."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import DIM, GOOD, Action, Chip, QRCode, Text, settle_height


class JoinScreen(BaseScreen):
    def update(self, force: bool = False) -> None:
        app = self.app
        box = app.box
        server = box.server
        seats = server.seat_urls() if server is not None and app.view is not None else {}
        wifi = box.options.wifi_ssid
        key = (tuple(seats.items()), tuple(app.connected), wifi, server is not None and server.give_pad is not None)
        if not self.changed("join", key, force):
            return
        grid = self.ids.codes
        grid.clear_widgets()
        cards = []
        if wifi:
            from companion.web import qr

            cards.append((qr.wifi(wifi, box.options.wifi_password), None, app.t("ui.wifi_qr", ssid=wifi)))
        for seat, url in seats.items():
            if seat not in app.connected:
                cards.append((url, seat, app.t("ui.scan_seat")))
        grid.cols = max(1, min(4, len(cards)))
        for data, seat, caption in cards:
            card = BoxLayout(orientation="vertical", spacing=dp(2))
            card.add_widget(QRCode(data=data))
            if seat:
                card.add_widget(Chip(seat, app.colour(seat), font=dp(17), size_hint_y=None, height=dp(26)))
            card.add_widget(Text(text=caption, base_font=dp(13), min_font=dp(9), ink=DIM, size_hint_y=None,
                                 height=dp(32)))
            card.seat = seat
            grid.add_widget(card)
        if not cards:
            grid.cols = 1
            grid.add_widget(Text(text=app.t("ui.all_connected"), base_font=dp(20), ink=GOOD))
        status = self.ids.status
        status.clear_widgets()
        for seat in seats:
            on = seat in app.connected
            row = BoxLayout(orientation="vertical", size_hint_y=None, height=dp(56))
            row.add_widget(Chip(seat, app.colour(seat), font=dp(16)))
            row.add_widget(Text(text=app.t("ui.connected" if on else "ui.not_connected"), base_font=dp(13),
                                ink=GOOD if on else DIM, halign="left", size_hint_y=0.5))
            status.add_widget(row)
        pads = self.ids.pads
        pads.clear_widgets()
        settle_height(pads)
        if server is not None and server.give_pad is not None:
            pads.add_widget(Text(text=app.t("ui.give_pad"), grow=True, size_hint_y=None, base_font=dp(13),
                                 halign="left"))
            for seat in seats:
                button = Action(text=app.colour(seat), size_hint_y=None, height=dp(48), base_font=dp(15))
                button.bind(on_release=lambda _b, s=seat: server.give_pad(s))
                pads.add_widget(button)
