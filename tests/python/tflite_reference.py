"""TFLite int8 arithmetic in plain NumPy, written from shared/spec/quantization.md
section 1, as the tests' independent reference for cosim.golden (never computed
with the module under test). Slow loops are fine: the tests use small tensors."""

import math

import numpy as np

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def quantize_multiplier(m):
    """frexp, round(q * 2^31), rollover 2^31 -> 2^30 with shift + 1, shift < -31 -> 0."""
    if m == 0:
        return 0, 0
    q, shift = math.frexp(m)
    q_fixed = int(round(q * 2**31))
    if q_fixed == 2**31:
        q_fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return q_fixed, shift


def _wrap32(x):
    return ((x + 2**31) % 2**32) - 2**31


def _srdhm(a, b):
    if a == INT32_MIN and b == INT32_MIN:
        return INT32_MAX
    p = a * b
    nudge = 2**30 if p >= 0 else 1 - 2**30
    return _trunc_div(p + nudge, 2**31)


def _trunc_div(n, d):
    q = abs(n) // d
    return q if n >= 0 else -q


def _rounding_divide_by_pot(h, e):
    mask = (1 << e) - 1
    rem = h & mask
    thr = (mask >> 1) + (1 if h < 0 else 0)
    return (h >> e) + (1 if rem > thr else 0)


def requantize(x, multiplier, shift, rounding):
    """One int32 accumulator times multiplier * 2^(shift - 31)."""
    x = int(x)
    if rounding == "double":
        left = max(shift, 0)
        h = _srdhm(_wrap32(x << left), multiplier)
        return _rounding_divide_by_pot(h, max(-shift, 0))
    t = 31 - shift
    y = (x * multiplier + (1 << (t - 1))) >> t
    return max(INT32_MIN, min(INT32_MAX, y))


def activation_range(activation, output_scale, output_zero_point):
    lo, hi = -128, 127
    if activation in ("relu", "relu6"):
        lo = max(lo, output_zero_point)
    if activation == "relu6":
        # std::round of the float quotient: half away from zero (Python's round is half to even).
        hi = min(hi, output_zero_point + math.floor(float(np.float32(6.0) / np.float32(output_scale)) + 0.5))
    return lo, hi


def channel_multipliers(input_scale, filter_scales, output_scale):
    return [
        quantize_multiplier(float(np.float32(input_scale)) * float(np.float32(s)) / float(np.float32(output_scale)))
        for s in np.atleast_1d(filter_scales)
    ]


def same_padding(size, kernel, stride, dilation):
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return out, total // 2


def conv2d(x, w, bias, *, input_scale, input_zero_point, filter_scales, output_scale, output_zero_point,
           stride=1, rounding="double", activation="none", depthwise_multiplier=None):
    """CONV_2D (w [O,KH,KW,C]) or, with depthwise_multiplier, DEPTHWISE_CONV_2D
    (w [1,KH,KW,C*dm]); SAME padding, dilation 1."""
    n, h, wd, c = x.shape
    kh, kw = w.shape[1], w.shape[2]
    out_c = w.shape[3] if depthwise_multiplier else w.shape[0]
    oh, pad_h = same_padding(h, kh, stride, 1)
    ow, pad_w = same_padding(wd, kw, stride, 1)
    mults = channel_multipliers(input_scale, filter_scales, output_scale)
    lo, hi = activation_range(activation, output_scale, output_zero_point)
    xs = x.astype(np.int64) - input_zero_point
    y = np.zeros((n, oh, ow, out_c), dtype=np.int8)
    for b in range(n):
        for oy in range(oh):
            for ox in range(ow):
                for o in range(out_c):
                    acc = int(bias[o]) if bias is not None else 0
                    for ky in range(kh):
                        for kx in range(kw):
                            iy, ix = oy * stride + ky - pad_h, ox * stride + kx - pad_w
                            if not (0 <= iy < h and 0 <= ix < wd):
                                continue
                            if depthwise_multiplier:
                                acc += int(w[0, ky, kx, o]) * int(xs[b, iy, ix, o // depthwise_multiplier])
                            else:
                                acc += int(np.dot(w[o, ky, kx, :].astype(np.int64), xs[b, iy, ix, :]))
                    m, s = mults[o if len(mults) > 1 else 0]
                    y[b, oy, ox, o] = min(hi, max(lo, requantize(acc, m, s, rounding) + output_zero_point))
    return y


def fully_connected(x, w, bias, *, input_scale, input_zero_point, filter_scales, output_scale, output_zero_point,
                    rounding="double"):
    rows = x.reshape(-1, w.shape[1]).astype(np.int64) - input_zero_point
    acc = rows @ w.astype(np.int64).T + (bias.astype(np.int64) if bias is not None else 0)
    mults = channel_multipliers(input_scale, filter_scales, output_scale)
    y = np.zeros(acc.shape, dtype=np.int8)
    for r in range(acc.shape[0]):
        for o in range(acc.shape[1]):
            m, s = mults[o if len(mults) > 1 else 0]
            y[r, o] = min(127, max(-128, requantize(acc[r, o], m, s, rounding) + output_zero_point))
    return y


def add(x1, x2, *, s1, zp1, s2, zp2, s_out, zp_out, rounding="double"):
    s1, s2, s_out = (float(np.float32(v)) for v in (s1, s2, s_out))
    t = 2 * max(s1, s2)
    m1, m2 = quantize_multiplier(s1 / t), quantize_multiplier(s2 / t)
    mo = quantize_multiplier(t / (2**20 * s_out))
    a, b = np.broadcast_arrays(x1, x2)
    y = np.zeros(a.shape, dtype=np.int8)
    for i in np.ndindex(a.shape):
        u = requantize((int(a[i]) - zp1) << 20, *m1, rounding)
        v = requantize((int(b[i]) - zp2) << 20, *m2, rounding)
        y[i] = min(127, max(-128, requantize(u + v, *mo, rounding) + zp_out))
    return y


def average_pool2d(x, k, stride):
    """VALID padding: the mean of each window, rounded half away from zero."""
    n, h, w, c = x.shape
    oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
    y = np.zeros((n, oh, ow, c), dtype=np.int8)
    for b, oy, ox, ch in np.ndindex(n, oh, ow, c):
        win = x[b, oy * stride:oy * stride + k, ox * stride:ox * stride + k, ch].astype(np.int64)
        total, count = int(win.sum()), win.size
        y[b, oy, ox, ch] = (total + count // 2) // count if total >= 0 else -((-total + count // 2) // count)
    return y
