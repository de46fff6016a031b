"""Build hook for the optional compiled build; everything else is in pyproject.toml.

Pure Python is the default build: nothing here runs unless BLOODFORGE_MYPYC=1. Then the modules
listed in src/bloodforge/mypyc_modules.txt are compiled to C extensions with mypyc (the code is
mypy --strict already), which plays the same games faster (README, "Compiled build").

Why the fallbacks: a machine without a C compiler or without mypy must still install bloodforge,
so a missing mypyc, a mypyc failure or a C compile failure prints why and installs the pure
package. BLOODFORGE_MYPYC=require turns those into errors (CI uses it: a compiled-build job that
quietly tested pure code would prove nothing).
"""

from __future__ import annotations

import inspect
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
MODULE_LIST = HERE / "src" / "bloodforge" / "mypyc_modules.txt"
MODE = os.environ.get("BLOODFORGE_MYPYC", "").strip().lower()


def listed_paths() -> list[str]:
    names = (line.split("#", 1)[0].strip() for line in MODULE_LIST.read_text(encoding="utf-8").splitlines())
    return [str(Path("src", *name.split(".")).with_suffix(".py")) for name in names if name]


def tolerate_mypyc_signature_bug() -> None:
    """mypyc 2.x builds a text signature for each method's docstring with inspect.Signature, which
    refuses `def f(self, x: float = 0.25, **options)` ("non-default argument follows default
    argument": it treats **options as positional). The signature is only documentation, so it is
    built unvalidated rather than failing the whole build."""
    original = inspect.Signature.__init__

    def lenient(self: inspect.Signature, parameters: Any = None, *args: Any, **kwargs: Any) -> None:
        try:
            original(self, parameters, *args, **kwargs)
        except ValueError:
            kwargs["__validate_parameters__"] = False
            original(self, parameters, *args, **kwargs)

    inspect.Signature.__init__ = lenient  # type: ignore[method-assign]


class ParallelBuildExt(build_ext):
    """Compiles the generated C files on every core (about 5 minutes on one)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


def compiled_extensions() -> list[Any]:
    if MODE in ("", "0", "no", "false"):
        return []
    required = MODE == "require"
    try:
        from mypyc.build import mypycify

        tolerate_mypyc_signature_bug()
        extensions = mypycify(listed_paths(), opt_level="3")
    except Exception as failure:  # mypy missing, or mypyc refused a module
        if required:
            raise
        print(f"bloodforge: compiled build unavailable ({failure!r}); installing pure Python", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = not required  # a failed C compile leaves the pure module in place
    return extensions


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": ParallelBuildExt})
