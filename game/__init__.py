"""Paper Arcade: the rules (game/rules) and the pygame client (everything else in game/)."""

APP_NAME = "Paper Arcade"
APP_VERSION = "0.1.0"
