"""python -m ai.agent with the tests' tiny games 'race' and 'hide' registered (for tests that
need a game without depending on the real ones)."""

import os
import sys

os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from ai import agent  # noqa: E402
from game import registry  # noqa: E402

registry.register("race", "tests.fakes.race", "tests.fakes.race", "tests.fakes.race")
registry.register("hide", "tests.agents.hide", "tests.agents.hide", "tests.agents.hide")
_available = registry.available
registry.available = lambda: _available() + ["race", "hide"]
sys.exit(agent.main(sys.argv[1:]))
