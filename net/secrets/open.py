"""The LAN handling of every game that hides nothing (the registry's default)."""

from net.secrets import Open

SECRETS = Open
