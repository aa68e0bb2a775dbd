#!/usr/bin/env python3
"""Cycle-level model of the TF2 engine's loads and PE array sharing one DRAM
port, on the issue-14 layer (28x28x64 -> 64, 3x3, pad 1, 4 groups of 16
output channels, 4 input channel groups).

A planning aid, not the RTL: it ranks read orders and accumulation schemes
before any RTL is written. What it prints are model figures; the measured
ones come from `build/bench/tf2_tlm/bench_tf2_tlm`. The RTL now runs the
`rows` scheme: the model gives 9131, 9250 and 9177 cycles for seeds 1..3,
the RTL measures 9237, 9345 and 9326. The `blocks` scheme is the RTL before
it (9890, 10177, 9883 in the model; 10011, 10191, 10197 measured).

DRAM, as tb/tlm/dram_timing.cpp and timed_axi_slave.cpp time it: one read
and one write beat (16 bytes) a cycle at most; every beat is an access that
pays 20 cycles when its address does not follow the previous one in its
direction and, with probability 5 %, a stall of 1..16 cycles; the extra
cycles freeze the whole port, reads and writes alike.

PE array: an output block (5 pixels of one group) takes 3 cycles per input
channel group (the 3 kernel rows); a block's last channel group queues its
5 output beats for the writer (a FIFO of `--write-queue` beats), and a
group switch on the write side pays the latency. A block needs its filters
and the input rows of its channel group up to its last row + 1.

Schemes:
  blocks     every block runs over all channel groups before the next (the
             RTL), filters loaded per group of 16 output channels;
  psum-first the first band's blocks accumulate channel group by channel
             group (a partial-sum memory for that band), then as `blocks`;
  psum       every band accumulates channel group by channel group;
  slices     as `psum`, with the weights packed by input channel group so
             one read brings that channel group's codes for every output
             group (all parameters first, in one read);
  rows       as `blocks`, with the maps laid out row by row ([H][C/16][W][16],
             HC16W, instead of channel group by channel group,
             [C/16][H][W][16]), so the input is one sequential stream that
             gates rows one by one and every channel group; each group's
             parameters next to its codes, the groups one after another; the
             writer emits the output in address order from a reorder buffer
             of `--reorder-rows` output rows per group (one sequential write
             stream), and the PEs take the group in the lowest output row,
             the oldest of those (the writer's order; the others wait for
             the writer when they run ahead).

Usage:
  rtl/tf2/tools/tf2_load_model.py                  the named orders, seeds 1..3
  rtl/tf2/tools/tf2_load_model.py --search slices  the best orders of a grid (blocks, psum
                                             and rows take minutes)
"""
import argparse
import itertools
import random
import sys

H = W = 28          # the layer's input (= output) rows and columns
CHANNEL_GROUPS = 4  # input channels / 16
GROUPS = 4          # output channels / 16
BLOCK = 5           # output pixels per block (OCol3D)
KY_BEATS = 3        # PE cycles per block and channel group (3x3 kernel)
LATENCY = 20
STALL_P = 0.05
STALL_MAX = 16
FILTER_BEATS = 288  # one group's codes: 16 x 64 x 9 nibbles
PARAM_BEATS = 16    # one group's bias/alpha/beta/Q, a beat per channel


def tiles_of(tile_rows):
    """Output rows cut into tiles of `tile_rows` (the first tiles' sizes, the
    last one repeating, as bands_of cuts); each tile a list of blocks (last
    output row, pixels) that run on across rows inside the tile."""
    tiles = []
    for y, rows in bands_of(tile_rows):
        pixels, p, blocks = rows * W, 0, []
        while p < pixels:
            n = min(BLOCK, pixels - p)
            blocks.append((y + (p + n - 1) // W, n))
            p += n
        tiles.append(blocks)
    return tiles


def work_units(scheme, tile_rows):
    """Per output group, its units in order: (channel group, input rows
    needed, pixels, last channel group of the block)."""
    def block_major(blocks):
        return [(c, min(H, yl + 2), n, c == CHANNEL_GROUPS - 1) for yl, n in blocks for c in range(CHANNEL_GROUPS)]

    def group_major(blocks):
        return [(c, min(H, yl + 2), n, c == CHANNEL_GROUPS - 1) for c in range(CHANNEL_GROUPS) for yl, n in blocks]

    if scheme in ("blocks", "rows"):
        tiles = tiles_of([H])
        units = block_major(tiles[0])
    elif scheme == "psum-first":
        tiles = tiles_of([tile_rows[0], H])
        units = group_major(tiles[0]) + [u for t in tiles[1:] for u in block_major(t)]
    else:
        units = [u for t in tiles_of(tile_rows) for u in group_major(t)]
    return [list(units) for _ in range(GROUPS)]


def reads_of(order):
    """The read stream: (kind, key, beats) per command; input rows one by one."""
    reads = []
    for item in order:
        if item[0] == "filter":
            reads += [("param", item[1], PARAM_BEATS), ("filter", item[1], FILTER_BEATS)]
        elif item[0] == "params":
            reads.append(("param", -1, PARAM_BEATS * GROUPS))
        elif item[0] == "slice":
            reads.append(("slice", item[1], FILTER_BEATS))
        elif item[0] == "rows":
            _, y0, n = item
            reads += [("row", (c, y), W) for y in range(y0, y0 + n) for c in range(CHANNEL_GROUPS)]
        else:
            _, c, y0, n = item
            reads += [("row", (c, y), W) for y in range(y0, y0 + n)]
    return reads


def follows(previous, kind, key, row_major):
    """Whether a read's first beat follows the previous read's last address.
    [C/16][H][W][16]: a channel group's next row; row by row (HC16W): the
    next channel group of the row or the next row's first, and a group's
    codes after its parameters or its parameters after the group before's
    codes."""
    if previous is None:
        return False
    if kind == "row" and previous[0] == "row":
        (pc, py), (c, y) = previous[1], key
        if row_major:
            return py * CHANNEL_GROUPS + pc + 1 == y * CHANNEL_GROUPS + c
        return pc == c and py + 1 == y
    if row_major and kind == "filter":
        return previous == ("param", key)
    if row_major and kind == "param":
        return previous == ("filter", key - 1)
    return False


def simulate(order, scheme="blocks", tile_rows=(H,), seed=1, write_queue=32, sticky=False, reorder_rows=10):
    """Cycles until the last output beat is written, and the PE busy cycles."""
    rng = random.Random(seed)
    row_major = scheme == "rows"
    done, written = [0] * GROUPS, [0] * GROUPS  # output pixels per group
    write_at = [0, 0, 0]  # the in-order writer's next output row, group, column
    reads = reads_of(order)
    units = work_units(scheme, tile_rows)
    ri = beat = 0
    previous = None
    filters, slices, rows = set(), set(), [0] * CHANNEL_GROUPS
    freeze = queued = 0
    write_switch = False
    last_writer = None
    pos = [0] * GROUPS
    running, left, last_group = None, 0, None
    cycle = busy = 0

    def stall():
        return 1 + rng.randrange(STALL_MAX) if rng.random() < STALL_P else 0

    while True:
        pe_done = running is None and all(pos[g] >= len(units[g]) for g in range(GROUPS))
        if pe_done and queued == 0 and freeze == 0 and (not row_major or write_at[0] == H):
            return cycle, busy
        cycle += 1
        if freeze > 0:
            freeze -= 1
        else:
            extra = 0
            if ri < len(reads):
                kind, key, beats = reads[ri]
                if beat == 0 and not follows(previous, kind, key, row_major):
                    extra += LATENCY
                extra += stall()
                beat += 1
                if beat == beats:
                    if kind == "filter":
                        filters.add(key)
                    elif kind == "slice":
                        slices.add(key)
                    elif kind == "row":
                        rows[key[0]] = key[1] + 1
                    ri, beat, previous = ri + 1, 0, (kind, key)
            y, g, x = write_at
            if row_major and y < H and done[g] > y * W + x:
                # One sequential stream: only the first beat pays the latency.
                extra += (LATENCY if y == g == x == 0 else 0) + stall()
                written[g] += 1
                write_at = [y, g, x + 1] if x + 1 < W else ([y, g + 1, 0] if g + 1 < GROUPS else [y + 1, 0, 0])
            elif queued > 0:
                if write_switch:
                    extra += LATENCY
                    write_switch = False
                extra += stall()
                queued -= 1
            freeze += extra
        if running is None:
            # The oldest group whose next unit is ready (or, sticky, the last one
            # first; row by row, the one in the lowest output row, oldest first).
            candidates = ([last_group] if sticky and last_group is not None else []) + list(range(GROUPS))
            if row_major:
                candidates = sorted(range(GROUPS), key=lambda g: (done[g] // W, g))
            for g in candidates:
                if pos[g] >= len(units[g]):
                    continue
                c, need, n, last_cg = units[g][pos[g]]
                loaded = c in slices if scheme == "slices" else g in filters
                room = (done[g] + n - written[g] <= reorder_rows * W) if row_major else (queued <= write_queue - n)
                if loaded and rows[c] >= need and (not last_cg or room):
                    running, last_group, left = g, g, KY_BEATS
                    break
        if running is not None:
            left -= 1
            busy += 1
            if left == 0:
                _, _, n, last_cg = units[running][pos[running]]
                if last_cg and row_major:
                    done[running] += n
                elif last_cg:
                    queued += n
                    write_switch = write_switch or last_writer != running
                    last_writer = running
                pos[running] += 1
                running = None


def bands_of(sizes):
    """Input rows cut into bands: the given sizes, the last one repeating."""
    bands, y = [], 0
    sizes = list(sizes)
    while y < H:
        n = min(sizes.pop(0) if len(sizes) > 1 else sizes[0], H - y)
        bands.append((y, n))
        y += n
    return bands


def group_order(bands, filter_before):
    """Each band as one read per channel group; group g's filters before band
    filter_before[g] (len(bands) = after the last)."""
    order = []
    for i, (y0, n) in enumerate(bands):
        order += [("filter", g) for g in range(GROUPS) if filter_before[g] == i]
        order += [("row", c, y0, n) for c in range(CHANNEL_GROUPS)]
    return order + [("filter", g) for g in range(GROUPS) if filter_before[g] >= len(bands)]


def row_order(filter_before):
    """The row-by-row map as one stream of input rows; group g's parameters
    and codes before input row filter_before[g] (H = after the last)."""
    order, y = [], 0
    for row in sorted(set(filter_before) | {H}):
        if row > y:
            order.append(("rows", y, min(row, H) - y))
            y = min(row, H)
        order += [("filter", g) for g in range(GROUPS) if filter_before[g] == row]
    return order


def slice_order(bands):
    """All parameters, then per band and channel group: its slice (the first
    time) and its rows."""
    order, loaded = [("params",)], set()
    for y0, n in bands:
        for c in range(CHANNEL_GROUPS):
            if c not in loaded:
                order.append(("slice", c))
                loaded.add(c)
            order.append(("row", c, y0, n))
    return order


def previous_rtl_order():
    """The order of the RTL before the `rows` scheme: a first band of 11
    rows, groups 0..2, a band of 4, group 3, then bands of 4."""
    return group_order(bands_of([11, 4]), [1, 1, 1, 2])


NAMED = {
    "previous RTL order (blocks)": (previous_rtl_order(), dict(scheme="blocks")),
    "group 0 first, psum over the first band": (group_order(bands_of([11, 4]), [0, 1, 1, 1]),
                                                dict(scheme="psum-first", tile_rows=(10,))),
    "RTL: row by row, groups 0-2 at row 3, 3 at row 11": (row_order([3, 3, 3, 11]), dict(scheme="rows")),
}


def group_orders():
    """The grid of the `blocks` and `psum` searches: three band sizes (the
    last repeating) and where each group's filters go, group 0 first or
    after the first band."""
    for first, second, rest in itertools.product([3, 4, 5, 6, 8, 11], [3, 4, 6, 8], [4, 6, 8]):
        bands = bands_of([first, second, rest])
        for later in itertools.product(range(4), repeat=3):
            for g0 in (0, 1):
                before = (g0,) + tuple(max(g0, b) for b in sorted(later))
                yield f"bands {first}/{second}/{rest}, filters before bands {before}", group_order(bands, before)


def mean_cycles(order, seeds, *args):
    return sum(simulate(order, *args, seed=s)[0] for s in seeds) / len(seeds)


def search(family, seeds):
    """Grid search; returns (mean cycles, description) sorted."""
    results = []
    if family == "blocks":
        results = [(mean_cycles(order, seeds), what) for what, order in group_orders()]
    elif family == "psum":
        results = [(mean_cycles(order, seeds, "psum", (tile,)), f"{what}, tiles {tile}")
                   for what, order in group_orders() for tile in (2, 4, 6)]
    elif family == "rows":
        for first in range(4):
            for later in itertools.combinations_with_replacement(range(first, 15), GROUPS - 1):
                order = row_order((first,) + later)
                for reorder in (4, 10):
                    cycles = [simulate(order, "rows", seed=s, reorder_rows=reorder)[0] for s in seeds]
                    results.append((sum(cycles) / len(cycles),
                                    f"filters before input rows {(first,) + later}, reorder rows {reorder}"))
    elif family in ("slices", "slices-large-queue", "slices-sticky"):
        queue = 32 if family == "slices" else 1024
        sticky = family == "slices-sticky"
        for first, rest in itertools.product([5, 7, 9, 11, 13], [2, 4, 6]):
            order = slice_order(bands_of([first, rest]))
            for first_tile, tile in itertools.product([first - 1, first - 3], [1, 2, 4]):
                cycles = [simulate(order, "slices", (first_tile, tile), s, queue, sticky)[0] for s in seeds]
                results.append((sum(cycles) / len(cycles),
                                f"bands {first}/{rest}, tiles {first_tile}/{tile}, write queue {queue}"))
    else:
        sys.exit(f"tf2_load_model: unknown family '{family}' (blocks, psum, rows, slices, slices-large-queue, "
                 "slices-sticky)")
    return sorted(set(results))  # different grid points can name the same order


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2,3", help="stall seeds, comma-separated (default 1,2,3)")
    parser.add_argument("--search", metavar="FAMILY",
                        help="grid-search one family: blocks, psum, rows, slices, slices-large-queue, slices-sticky")
    parser.add_argument("--top", type=int, default=5, help="orders to print with --search")
    parser.add_argument("--reorder-rows", type=int, default=10,
                        help="output rows per group the row-by-row writer can hold (default 10)")
    args = parser.parse_args()
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        sys.exit(f"tf2_load_model: --seeds wants integers, got '{args.seeds}'")
    if args.reorder_rows < 1:
        sys.exit(f"tf2_load_model: --reorder-rows wants at least 1, got {args.reorder_rows}")
    if args.search:
        print(f"{args.search}: the best of a grid (model cycles, mean over seeds {args.seeds})")
        for mean, what in search(args.search, seeds)[:args.top]:
            print(f"  {mean:8.0f}  {what}")
        return
    print(f"model cycles per seed ({args.seeds}); the 80 % of issue 14 is 9408")
    for name, (order, options) in NAMED.items():
        if options["scheme"] == "rows":
            options = dict(options, reorder_rows=args.reorder_rows)
        cycles = [simulate(order, seed=s, **options)[0] for s in seeds]
        print(f"  {name:52s} " + " ".join(f"{c:6d}" for c in cycles))


if __name__ == "__main__":
    main()
