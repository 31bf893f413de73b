"""Phones as voting wheels: the aiohttp server, seat tokens, the WebSocket protocol and the static page."""
