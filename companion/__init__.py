"""The zombie-table companion: secret dice cup, simultaneous secret votes and the books."""

__version__ = "0.1.0"
