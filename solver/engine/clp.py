"""COIN-OR CLP in this process, through its C interface, from the library cbcbox ships.

`pulp[cbc]` installs cbcbox, which carries CBC's binary and CLP's shared library with
its C interface (`Clp_C_Interface.h`); ctypes loads it in a few milliseconds. Through
cylp the same solver cost 0.15 s of imports (scipy) and leaked its matrix on every
model loaded (cylp's CyCoinPackedMatrix has no destructor): ~7 KB a position.

Between the nodes of a branch-and-bound only column bounds change. Two C++ members of
ClpSimplex, called by their Itanium-ABI names where the library exports them (Linux,
macOS), let a re-solve start from the last factorization: `dual(ifValuesPass,
startFinishOptions)` and `setColumnBounds`, which also updates the solver's own scaled
copy. A third, `setDualRowPivotAlgorithm`, with a ClpDualRowDantzig made once, has the
dual simplex price rows by Dantzig's rule. Where they are missing the C interface alone
is used (each re-solve then starts afresh: slower, the same answers).
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os
import sys
from typing import Any, NamedTuple

import numpy as np

from ..errors import SolverError
from .lp import LpEnd
from .model import Mip, Vector

# ClpSimplex::dual's startFinishOptions: keep the work areas and the factorization after
# a solve; start the next one from that factorization.
KEEP_WORK_AREAS, REUSE_FACTORIZATION = 1, 2
# Clp_status: 0 optimal, 1 primal infeasible, 2 dual infeasible, 3 stopped, 4 errors.
_OPTIMAL, _INFEASIBLE = 0, 1
# CLP reads bounds beyond 1e27 as infinite; numpy's inf is clamped to a finite double.
_LARGEST = float(np.finfo(np.float64).max)

_OR_HIGHS = " (--backend highs needs no CLP)"

_DUAL = "_ZN10ClpSimplex4dualEii"
_SET_COLUMN_BOUNDS = "_ZN10ClpSimplex15setColumnBoundsEidd"
_SET_DUAL_PRICING = "_ZN10ClpSimplex24setDualRowPivotAlgorithmER15ClpDualRowPivot"
_NEW_DANTZIG = "_ZN17ClpDualRowDantzigC1Ev"
# Room for one ClpDualRowDantzig (a vtable pointer and a few fields: tens of bytes).
_PRICING_BYTES = 1024


class _Api(NamedTuple):
    """The loaded library, its index type, and the C++ members if it exports them."""

    lib: Any
    index_type: Any  # numpy dtype of CoinBigIndex (column starts)
    dual: Any
    set_column_bounds: Any
    set_dual_pricing: Any
    dantzig: Any  # a ClpDualRowDantzig for set_dual_pricing to copy, kept for the process


@functools.cache
def api() -> _Api:
    """CLP's library, loaded once; a SolverError names what is missing."""
    try:
        import cbcbox
    except ImportError:
        raise SolverError(f"backend clp needs cbcbox: pip install 'pulp[cbc]'{_OR_HIGHS}") from None
    try:
        lib_dir = str(cbcbox.cbc_lib_dir())
    except Exception as error:  # an older or newer cbcbox, or a broken install
        raise SolverError(
            f"backend clp: cbcbox names no library folder ({error}){_OR_HIGHS}"
        ) from None
    dist = os.path.dirname(lib_dir)
    found = [
        path
        for pattern in ("libClp.so", "libClp.dylib", "libClp*.dll", "Clp*.dll")
        for folder in (lib_dir, os.path.join(dist, "bin"))
        for path in sorted(glob.glob(os.path.join(folder, pattern)))
    ]
    if not found:
        raise SolverError(f"backend clp: no CLP library in {lib_dir}{_OR_HIGHS}")
    if sys.platform == "win32":  # a DLL's own dependencies sit beside it
        for folder in (lib_dir, os.path.join(dist, "bin")):
            if os.path.isdir(folder):
                os.add_dll_directory(folder)
    try:
        lib = ctypes.CDLL(found[0])
    except OSError as error:
        raise SolverError(f"backend clp: cannot load {found[0]}: {error}{_OR_HIGHS}") from None
    return _Api(lib, _index_type(dist), *_declare(lib))


def _index_type(dist: str) -> Any:
    """CoinBigIndex, as the library was built: int unless its config says otherwise."""
    for header in glob.glob(os.path.join(dist, "include", "*", "CoinUtilsConfig.h")):
        with open(header, encoding="utf-8", errors="replace") as text:
            for line in text:
                if line.startswith("#define COINUTILS_BIGINDEX_T"):
                    return np.int64 if "long" in line or "int64" in line else np.int32
    return np.int32


def _declare(lib: Any) -> tuple[Any, Any, Any, Any]:
    """Declare the C functions used; return the C++ members, or None where missing, and
    a Dantzig dual pricing object if the library can make one."""
    pointer, integer, double = ctypes.c_void_p, ctypes.c_int, ctypes.c_double
    signatures: dict[str, tuple[list[Any], Any]] = {
        "Clp_newModel": ([], pointer),
        "Clp_deleteModel": ([pointer], None),
        "Clp_setLogLevel": ([pointer, integer], None),
        "Clp_loadProblem": ([pointer, integer, integer, *[pointer] * 8], None),
        "Clp_getClpSimplex": ([pointer], pointer),
        "Clp_chgColumnLower": ([pointer, pointer], None),
        "Clp_chgColumnUpper": ([pointer, pointer], None),
        "Clp_dual": ([pointer, integer], integer),
        "Clp_status": ([pointer], integer),
        "Clp_objectiveValue": ([pointer], double),
        "Clp_primalColumnSolution": ([pointer], pointer),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = arguments, result
    dual = getattr(lib, _DUAL, None)
    set_column_bounds = getattr(lib, _SET_COLUMN_BOUNDS, None)
    if dual is None or set_column_bounds is None:
        return None, None, None, None
    dual.argtypes, dual.restype = [pointer, integer, integer], integer
    set_column_bounds.argtypes, set_column_bounds.restype = [pointer, integer, double, double], None
    set_dual_pricing = getattr(lib, _SET_DUAL_PRICING, None)
    new_dantzig = getattr(lib, _NEW_DANTZIG, None)
    if set_dual_pricing is None or new_dantzig is None:
        return dual, set_column_bounds, None, None
    set_dual_pricing.argtypes, set_dual_pricing.restype = [pointer, pointer], None
    new_dantzig.argtypes, new_dantzig.restype = [pointer], None
    dantzig = ctypes.create_string_buffer(_PRICING_BYTES)
    new_dantzig(ctypes.addressof(dantzig))
    return dual, set_column_bounds, set_dual_pricing, dantzig


def _address(array: Vector) -> int:
    return int(array.ctypes.data)


class ClpLp:
    """One model's LP relaxation in CLP, re-solved under changing column bounds.

    CLP copies what it is given; `close` frees the model (the caller's `finally`).
    """

    engine = "clp"

    def __init__(self, mip: Mip) -> None:
        self.api = api()
        lib = self.api.lib
        self.columns = mip.columns
        self.model = lib.Clp_newModel()
        lib.Clp_setLogLevel(self.model, 0)
        arrays = [
            np.ascontiguousarray(mip.col_start, dtype=self.api.index_type),
            np.ascontiguousarray(mip.col_index, dtype=np.int32),
            np.ascontiguousarray(mip.col_value, dtype=np.float64),
            np.ascontiguousarray(mip.lower, dtype=np.float64),
            np.ascontiguousarray(mip.upper, dtype=np.float64),
            # CLP minimises: the objective is negated, and so is its value read back.
            np.ascontiguousarray(-mip.cost, dtype=np.float64),
            np.minimum(np.maximum(mip.row_lower, -_LARGEST), _LARGEST),
            np.minimum(np.maximum(mip.row_upper, -_LARGEST), _LARGEST),
        ]
        lib.Clp_loadProblem(self.model, mip.columns, mip.rows, *map(_address, arrays))
        self.lower, self.upper = arrays[3], arrays[4]
        self.simplex = lib.Clp_getClpSimplex(self.model) if self.api.dual is not None else None
        if self.simplex is not None and self.api.dantzig is not None:
            # Dantzig's rule prices these small LPs' rows in less time than CLP's default
            # steepest edge saves in iterations (600 positions: median 326 -> 296 us).
            self.api.set_dual_pricing(self.simplex, ctypes.addressof(self.api.dantzig))
        self.solved = False

    def bound(self, lower: Vector, upper: Vector) -> None:
        lower = np.ascontiguousarray(lower, dtype=np.float64)
        upper = np.ascontiguousarray(upper, dtype=np.float64)
        if self.simplex is not None:
            # Few bounds differ from one node to the next: set those alone.
            changed = np.flatnonzero((lower != self.lower) | (upper != self.upper))
            for j in changed.tolist():
                self.api.set_column_bounds(self.simplex, j, lower[j], upper[j])
        else:
            self.api.lib.Clp_chgColumnLower(self.model, _address(lower))
            self.api.lib.Clp_chgColumnUpper(self.model, _address(upper))
        self.lower, self.upper = lower, upper

    def solve(self, seconds: float) -> LpEnd:
        # One LP here takes well under the resolution of a time limit: the search checks
        # the clock between LPs.
        if self.simplex is not None:
            options = KEEP_WORK_AREAS | (REUSE_FACTORIZATION if self.solved else 0)
            self.api.dual(self.simplex, 0, options)
        else:
            self.api.lib.Clp_dual(self.model, 0)
        self.solved = True
        status = self.api.lib.Clp_status(self.model)
        if status == _OPTIMAL:
            return LpEnd.OPTIMAL
        return LpEnd.INFEASIBLE if status == _INFEASIBLE else LpEnd.OTHER

    def objective(self) -> float:
        return -float(self.api.lib.Clp_objectiveValue(self.model))

    def values(self) -> Vector:
        """A copy of the column values (CLP writes the next solve's into the same place;
        a copy by memmove costs less than a ctypes array type made for each model)."""
        values = np.empty(self.columns)
        address = self.api.lib.Clp_primalColumnSolution(self.model)
        ctypes.memmove(values.ctypes.data, address, values.nbytes)
        return values

    def close(self) -> None:
        if self.model is not None:
            self.api.lib.Clp_deleteModel(self.model)
            self.model = None
