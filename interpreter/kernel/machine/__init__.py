"""The kernel's machine, which runs any puzzle of the model (cells, places, counters; every
move family; safety rules and goals of every kind) as a program of integers: the program
(`program`, in the layout of `records`, laid out as one array by `assembly`), expressions as
bytecode (`bytecode`), and the fixed numba code that runs them (`machine`: states unpacked,
bytecode evaluated; `moves`: successors, safety rules, the goal), compiled once as one
C-callable entry point (`entry`) that every search calls by its address (`calls`). Apart
from the word tables because it runs everything they cannot, and is the slow part to
compile (half a minute): only a search that needs it imports `entry`."""
