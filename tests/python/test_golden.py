"""cosim.golden against tflite_reference.py (NumPy, from the spec), in both roundings."""

import numpy as np
import pytest

import cosim
import tflite_reference as ref

ROUNDINGS = ["double", "single"]


def int8(rng, shape, lo=-128, hi=127):
    return rng.integers(lo, hi + 1, size=shape).astype(np.int8)


@pytest.fixture
def rng():
    return np.random.default_rng(2024)


CONV_QUANT = dict(input_scale=0.0235294, input_zero_point=-128, output_scale=0.05, output_zero_point=-3)


@pytest.mark.parametrize("rounding", ROUNDINGS)
@pytest.mark.parametrize("stride", [1, 2])
def test_conv2d_per_channel(rng, rounding, stride):
    x, w = int8(rng, (1, 7, 7, 8)), int8(rng, (6, 3, 3, 8), -127)
    bias = rng.integers(-3000, 3000, size=6).astype(np.int32)
    scales = [0.002, 0.004, 0.003, 0.0051, 0.0072, 0.0025]
    got = cosim.golden.conv2d(x, w, bias, filter_scales=scales, stride=stride, rounding=rounding, **CONV_QUANT)
    want = ref.conv2d(x, w, bias, filter_scales=scales, stride=stride, rounding=rounding, **CONV_QUANT)
    assert got.dtype == np.int8 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_roundings_differ_somewhere(rng):
    # The two modes are not the same function: on enough elements some tie
    # breaks differently (the reference says where).
    x, w = int8(rng, (1, 12, 12, 16)), int8(rng, (16, 1, 1, 16), -127)
    q = dict(input_scale=0.03, input_zero_point=5, filter_scales=0.0047, output_scale=0.04, output_zero_point=0)
    double = cosim.golden.conv2d(x, w, padding="valid", rounding="double", **q)
    single = cosim.golden.conv2d(x, w, padding="valid", rounding="single", **q)
    np.testing.assert_array_equal(double, ref.conv2d(x, w, None, rounding="double", **q))
    np.testing.assert_array_equal(single, ref.conv2d(x, w, None, rounding="single", **q))
    assert (double != single).any()


def test_conv2d_multipliers_as_pairs(rng):
    x, w = int8(rng, (1, 5, 5, 4)), int8(rng, (3, 3, 3, 4), -127)
    pairs = [ref.quantize_multiplier(0.0235294 * s / 0.05) for s in (0.002, 0.004, 0.003)]
    got = cosim.golden.conv2d(x, w, input_zero_point=-128, output_zero_point=-3, multipliers=pairs)
    q = dict(CONV_QUANT, filter_scales=[0.002, 0.004, 0.003])
    np.testing.assert_array_equal(got, ref.conv2d(x, w, None, **q))


@pytest.mark.parametrize("rounding", ROUNDINGS)
def test_depthwise_conv2d(rng, rounding):
    x, w = int8(rng, (1, 6, 6, 3)), int8(rng, (1, 3, 3, 6), -127)
    bias = rng.integers(-500, 500, size=6).astype(np.int32)
    scales = [0.01, 0.02, 0.015, 0.011, 0.009, 0.03]
    q = dict(input_scale=0.02, input_zero_point=7, filter_scales=scales, output_scale=0.04, output_zero_point=1)
    got = cosim.golden.depthwise_conv2d(x, w, bias, depth_multiplier=2, activation="relu", rounding=rounding, **q)
    want = ref.conv2d(x, w, bias, depthwise_multiplier=2, activation="relu", rounding=rounding, **q)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("rounding", ROUNDINGS)
def test_fully_connected(rng, rounding):
    x, w = int8(rng, (3, 20)), int8(rng, (5, 20), -127)
    bias = rng.integers(-2000, 2000, size=5).astype(np.int32)
    q = dict(input_scale=0.05, input_zero_point=-10, filter_scales=[0.01, 0.02, 0.005, 0.03, 0.012],
             output_scale=0.2, output_zero_point=4)
    got = cosim.golden.fully_connected(x, w, bias, rounding=rounding, **q)
    np.testing.assert_array_equal(got, ref.fully_connected(x, w, bias, rounding=rounding, **q))


@pytest.mark.parametrize("rounding", ROUNDINGS)
def test_add_with_broadcast(rng, rounding):
    a, b = int8(rng, (1, 4, 4, 8)), int8(rng, (1, 1, 4, 8))
    got = cosim.golden.add(a, b, input1_scale=0.1, input1_zero_point=3, input2_scale=0.07, input2_zero_point=-8,
                           output_scale=0.15, output_zero_point=-1, rounding=rounding)
    want = ref.add(a, b, s1=0.1, zp1=3, s2=0.07, zp2=-8, s_out=0.15, zp_out=-1, rounding=rounding)
    assert got.shape == (1, 4, 4, 8)
    np.testing.assert_array_equal(got, want)


def test_average_pool2d(rng):
    x = int8(rng, (1, 6, 6, 5))
    got = cosim.golden.average_pool2d(x, filter_size=2, stride=2)
    np.testing.assert_array_equal(got, ref.average_pool2d(x, 2, 2))


def test_softmax_close_to_float(rng):
    # The fixed-point kernel against the real softmax (the spec's meaning):
    # outputs at scale 1/256, zero point -128, within 2 LSB.
    x, scale = int8(rng, (4, 10)), 0.08
    got = cosim.golden.softmax(x, input_scale=scale)
    z = x.astype(np.float64) * scale
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    assert got.dtype == np.int8 and got.shape == x.shape
    assert np.abs((got.astype(np.float64) + 128) / 256 - p).max() <= 2 / 256


def test_lists_are_accepted_when_values_fit():
    got = cosim.golden.add([[1, 2]], [[3, -4]], input1_scale=1.0, input2_scale=1.0, output_scale=1.0)
    np.testing.assert_array_equal(got, np.array([[4, -2]], dtype=np.int8))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x, w: cosim.golden.conv2d(x, w, rounding="triple", **CONV_QUANT, filter_scales=0.01), "rounding"),
        (lambda x, w: cosim.golden.conv2d(x, w[..., :2], **CONV_QUANT, filter_scales=0.01), "input channels"),
        (lambda x, w: cosim.golden.conv2d(x, w), "input_scale"),
        (lambda x, w: cosim.golden.conv2d(x.astype(np.int32), w, **CONV_QUANT, filter_scales=0.01), "int8"),
        (lambda x, w: cosim.golden.add(x, x[:, :2], input1_scale=1, input2_scale=1, output_scale=1), "broadcast"),
        (lambda x, w: cosim.golden.add([300], [1], input1_scale=1, input2_scale=1, output_scale=1), "fit"),
    ],
)
def test_bad_arguments_raise_input_error(rng, call, message):
    x, w = int8(rng, (1, 4, 4, 4)), int8(rng, (2, 3, 3, 4))
    with pytest.raises(cosim.InputError, match=message):
        call(x, w)
