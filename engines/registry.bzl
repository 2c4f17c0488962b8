"""Every engine the command-line tool knows: its library's label and its stable name.

Adding an engine: one cellcheck_engine call in its directory, one line here.
"""

ENGINES = {
    "//reference/cpu_ref": "cpu.ref",
    "//reference/cuda_base": "cuda.base",
    "//engines/cpu/amx:amx": "cpu.amx",
    "//engines/cpu/amx:amx_emu": "cpu.amx-emu",
}
