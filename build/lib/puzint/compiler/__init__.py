"""The puzzle model compiled into a compact state encoding and precomputed move tables."""

from .compile import CompiledPuzzle, MoveLabel, compile_puzzle

__all__ = ["CompiledPuzzle", "MoveLabel", "compile_puzzle"]
