"""QR codes: SVG for the pages, text for the terminal, and the Wi-Fi QR that joins the table's network."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg


def svg(data: str) -> str:
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue().decode("utf-8")


def terminal(data: str) -> str:
    code = qrcode.QRCode(border=1)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def _escape(text: str) -> str:
    for char in "\\;,:\"":
        text = text.replace(char, "\\" + char)
    return text


def wifi(ssid: str, password: str | None) -> str:
    """The WIFI: payload phones understand (WPA, or an open network without a password)."""
    if password:
        return f"WIFI:T:WPA;S:{_escape(ssid)};P:{_escape(password)};;"
    return f"WIFI:T:nopass;S:{_escape(ssid)};;"
