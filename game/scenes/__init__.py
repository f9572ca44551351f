"""One module per screen. Every scene is a Scene (game/scenes/base.py) on the app's stack."""
