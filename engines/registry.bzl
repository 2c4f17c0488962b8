"""Every engine the command-line tool knows: its library's label and its stable name.

Adding an engine: one cellcheck_engine call in its directory, one line here.
"""

ENGINES = {
    "//reference/cpu_ref": "cpu.ref",
    "//reference/cuda_base": "cuda.base",
    "//engines/cpu/amx:amx": "cpu.amx",
    "//engines/cpu/amx:amx_emu": "cpu.amx-emu",
    "//engines/cpu/avx2": "cpu.avx2",
    "//engines/cpu/avx512": "cpu.avx512",
    "//engines/cpu/bitslice1": "cpu.bitslice1",
    "//engines/cpu/bitslice2": "cpu.bitslice2",
    "//engines/cpu/hexlut": "cpu.hexlut",
    "//engines/cpu/life_ternlog": "cpu.life-ternlog",
    "//engines/cuda/shared1": "cuda.shared1",
    "//engines/cuda/shared": "cuda.shared",
    "//engines/cuda/coarse": "cuda.coarse",
    "//engines/cuda/mcell": "cuda.mcell",
    "//engines/cuda/pack": "cuda.pack",
    "//engines/cpu/cat_emu": "cpu.cat-emu",
    "//engines/cuda/cat:cat": "cuda.cat",
    "//engines/cuda/cat:cat_f32": "cuda.cat-f32",
    "//engines/cuda/cat8": "cuda.cat8",
    "//engines/cuda/hex": "cuda.hex",
    "//engines/cuda/hexlut:cuda_hexlut": "cuda.hexlut",
    "//engines/cuda/bitslice:cuda_bitslice1": "cuda.bitslice1",
    "//engines/cuda/bitslice:cuda_bitslice2": "cuda.bitslice2",
    "//engines/cuda/life:life_shared": "cuda.life-shared",
    "//engines/cuda/life:life_shuffle": "cuda.life-shuffle",
    "//engines/cuda/life_lop3": "cuda.life-lop3",
    "//engines/cuda/life_lop3:life_lop3_nccl": "cuda.life-lop3-nccl",
    "//engines/cpu/cat1_emu": "cpu.cat1-emu",
    "//engines/cuda/cat1": "cuda.cat1",
    "//engines/cuda/cat1:cat1_nccl": "cuda.cat1-nccl",
    "//engines/cpu/runsum_emu": "cpu.runsum-emu",
    "//engines/cuda/runsum": "cuda.runsum",
}
