"""The packages: every one in companion/, and the top-level kv/ as companion.kv (its layouts go in the wheel)."""

from setuptools import find_namespace_packages, setup

setup(packages=[*find_namespace_packages(include=["companion*"], exclude=["*__pycache__"]), "companion.kv"])
