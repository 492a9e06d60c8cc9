from setuptools import setup

setup(name="tinypkg", version="1.0", py_modules=["tinypkg"])
