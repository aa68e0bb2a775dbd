#!/usr/bin/env python3
"""Checks of rtl/tf2/tools/tf2_load_model.py against counts taken from the layer's
shape alone: whatever the order, the PEs do every block of every output
group once per input channel group and kernel row (blocks do not run across
a tile's end, so tiles add the partial blocks), every read beat costs at
least a cycle, and a bad --seeds gets one error line."""
import importlib.util
import math
import pathlib
import subprocess
import sys
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[3] / "rtl" / "tf2" / "tools" / "tf2_load_model.py"
spec = importlib.util.spec_from_file_location("tf2_load_model", SCRIPT)
model = importlib.util.module_from_spec(spec)
spec.loader.exec_module(model)



def pe_cycles(tile_rows):
    """28x28 output pixels cut into tiles of whole rows (the sizes given, the
    last repeating), each in blocks of 5; 4 output groups x 4 input channel
    groups x 3 kernel rows, a cycle each."""
    sizes, y, blocks = list(tile_rows), 0, 0
    while y < 28:
        rows = min(sizes.pop(0) if len(sizes) > 1 else sizes[0], 28 - y)
        blocks += math.ceil(rows * 28 / 5)
        y += rows
    return blocks * 4 * 4 * 3


PE_CYCLES = pe_cycles([28])  # one tile: 157 blocks
# Input map (28x28 pixels x 4 channel groups) plus 64 channels' parameters
# and 64 x 64 x 9 four-bit codes, 16 bytes a beat.
READ_BEATS = 28 * 28 * 4 + 64 + 64 * 64 * 9 // 32


class LoadModel(unittest.TestCase):
    def check(self, order, tiles, **options):
        for seed in (1, 2):
            cycles, busy = model.simulate(order, seed=seed, **options)
            self.assertEqual(busy, pe_cycles(tiles), options)
            self.assertGreaterEqual(cycles, READ_BEATS, options)
            self.assertGreaterEqual(cycles, busy, options)

    def test_every_scheme_does_the_whole_layer(self):
        self.assertEqual(PE_CYCLES, 7536)  # the RTL's PE busy cycles on this layer
        self.check(model.previous_rtl_order(), [28], scheme="blocks")
        bands = model.bands_of([11, 4])
        self.check(model.group_order(bands, [0, 1, 1, 1]), [10, 18], scheme="psum-first", tile_rows=(10,))
        self.check(model.group_order(bands, [0, 1, 1, 1]), [4], scheme="psum", tile_rows=(4,))
        self.check(model.slice_order(model.bands_of([5, 4])), [2, 4], scheme="slices", tile_rows=(2, 4),
                   write_queue=1024)
        self.check(model.row_order([3, 3, 3, 11]), [28], scheme="rows")
        self.check(model.row_order([0, 5, 9, 28]), [28], scheme="rows", reorder_rows=1)

    def test_without_stalls_or_latency_the_start_is_the_first_band_and_filter(self):
        saved = model.STALL_P, model.LATENCY
        model.STALL_P, model.LATENCY = 0.0, 0
        try:
            cycles, busy = model.simulate(model.previous_rtl_order())
        finally:
            model.STALL_P, model.LATENCY = saved
        # The PEs start after the 11-row band and group 0's filter, then never wait.
        first_band = 11 * 28 * 4
        group0 = 16 + 288
        self.assertGreaterEqual(cycles, first_band + group0 + PE_CYCLES)
        self.assertLess(cycles, first_band + group0 + PE_CYCLES + 200)

    def test_row_by_row_reads_and_writes_are_single_streams(self):
        """All filters first, then the rows: the PEs start once group 0's
        first block has its input rows 0 and 1 of channel group 0 and never
        wait after (a row of reads, 112 beats, feeds 4 x 67 PE cycles). Only
        the first parameter read, the first row read and the first write are
        not sequential, so a 20-cycle latency adds 40 cycles before the start
        (the write's falls where the PEs are busy); a latency on every row
        read would add 20 more for each one before the start."""
        order = model.row_order([0, 0, 0, 0])
        saved = model.STALL_P, model.LATENCY
        try:
            model.STALL_P, model.LATENCY = 0.0, 0
            plain, busy = model.simulate(order, "rows")
            model.LATENCY = 20
            latent, _ = model.simulate(order, "rows")
        finally:
            model.STALL_P, model.LATENCY = saved
        start = 4 * (16 + 288) + 28 * 4 + 28  # input row 1 of channel group 0 in
        self.assertEqual(busy, PE_CYCLES)
        self.assertGreaterEqual(plain, start + PE_CYCLES)
        self.assertLess(plain, start + PE_CYCLES + 100)
        self.assertGreaterEqual(latent - plain, 40)
        self.assertLessEqual(latent - plain, 60)

    def test_bad_seeds_is_one_error_line(self):
        run = subprocess.run([sys.executable, str(SCRIPT), "--seeds", "one"], capture_output=True, text=True)
        self.assertNotEqual(run.returncode, 0)
        self.assertEqual(len(run.stderr.strip().splitlines()), 1, run.stderr)
        self.assertIn("--seeds", run.stderr)


if __name__ == "__main__":
    unittest.main()
