"""The compiled kernels' fixtures share this: the module, or the test skipped with the reason."""

from __future__ import annotations

from types import ModuleType

import pytest

from ai.compiled import Kernel


def compiled(kernel: Kernel, loaded: ModuleType | None = None) -> ModuleType:
    """The kernel's compiled module (`loaded` if the caller warmed it up itself); without numba
    the test is skipped and says why."""
    module = loaded if loaded is not None else kernel.load()
    if module is None:
        pytest.skip(f"numba unavailable: {kernel.error}")
    return module
