"""The table's address on the local network, for the URLs in the QR codes (an IP address, not a .local
name: Android resolves those badly)."""

from __future__ import annotations

import fcntl
import socket
import struct

SIOCGIFADDR = 0x8915  # Linux ioctl: an interface's IPv4 address


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, loopback last."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:
                continue  # no IPv4 address on this interface
            found.append(socket.inet_ntoa(packed[20:24]))
    return sorted(found, key=lambda ip: ip.startswith("127."))


def lan_address(listen_host: str) -> str:
    """The address phones should use: the one we listen on, or the first non-loopback one for 0.0.0.0."""
    if listen_host not in ("0.0.0.0", "", "::"):
        return listen_host
    addresses = lan_addresses()
    return addresses[0] if addresses else "127.0.0.1"
