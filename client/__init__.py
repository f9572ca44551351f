"""The pygame client: the window, the scene stack, the boards, the widgets and the sound.

It draws what the layers below decide and turns input into their calls; nothing below it
imports pygame or this folder.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # before pygame's first import

import pygame  # noqa: E402,F401  (the client is pygame: importing it starts here)
