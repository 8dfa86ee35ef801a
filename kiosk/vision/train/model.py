"""The networks: small plain CNNs that run in about a millisecond per batch on one Pi core.

The index model sees a 32 x 64 corner and has two heads, rank (13 ranks, joker, none) and
suit (4): every rank is learnt from all four suits, and the exported output is their product
in the order of ``INDEX_LABELS`` (52 cards, JK, none), so the runtime sees one softmax. The face
model sees a 64 x 90 face and also outputs an L2-normalised embedding, which the enrolment
gallery compares by cosine similarity.
"""

from __future__ import annotations

from typing import Any

EMBED_DIM = 48


def _block(layers: Any, x: Any, filters: int, convs: int, folded: bool = False) -> Any:
    for _ in range(convs):
        x = _conv(layers, x, filters, folded)
    return layers.MaxPooling2D(2)(x)


def _conv(layers: Any, x: Any, filters: int, folded: bool) -> Any:
    """A 3x3 convolution, batch norm and ReLU; ``folded``: the batch norm folded into the
    convolution's weights and bias, as an exported file holds it (:mod:`.requantize`)."""
    if folded:
        return layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
    x = layers.Conv2D(filters, 3, padding="same", use_bias=False)(x)
    return layers.ReLU()(layers.BatchNormalization()(x))


def _joint_layer() -> Any:
    import tensorflow as tf

    class JointCardProbs(tf.keras.layers.Layer):
        """p(card) = p(rank) * p(suit) for the 52 cards, then p(joker) and p(none) (rank head)."""

        def call(self, rank: Any, suit: Any) -> Any:
            ops = tf.keras.ops
            cards = ops.reshape(ops.expand_dims(suit, 2) * ops.expand_dims(rank[:, :13], 1), (-1, 52))
            return ops.concatenate([cards, rank[:, 13:]], axis=1)

    return JointCardProbs(name="probs")


def build_index(input_hw: tuple[int, int], folded: bool = False) -> Any:
    """The corner model: shared trunk, rank and suit heads, joint 54-way output; ``folded``:
    the inference network of an exported file, batch norms folded into the convolutions.

    Each head has its own hidden layer and there is no dropout: with one dropped-out layer
    shared, clubs and spades (a few pixels apart) parted late or never (models/MODEL.md)."""
    import tensorflow as tf

    layers = tf.keras.layers
    inp = tf.keras.Input((*input_hw, 3), name="image")
    x = _block(layers, inp, 16, 1, folded)
    x = _block(layers, x, 32, 2, folded)
    x = _block(layers, x, 64, 2, folded)
    x = layers.Flatten()(_conv(layers, x, 96, folded))
    rank = layers.Dense(15, activation="softmax", name="rank")(layers.Dense(128, activation="relu")(x))
    suit = layers.Dense(4, activation="softmax", name="suit")(layers.Dense(64, activation="relu")(x))
    return tf.keras.Model(inp, _joint_layer()(rank, suit))


def build_face(input_hw: tuple[int, int], n_classes: int, widths: tuple[int, ...] = (16, 32, 48, 64)) -> Any:
    """The face model: conv blocks of ``widths``, an embedding layer, softmax; two outputs."""
    import tensorflow as tf

    layers = tf.keras.layers
    inp = tf.keras.Input((*input_hw, 3), name="image")
    x = inp
    for i, f in enumerate(widths):
        x = _block(layers, x, f, 1 if i == 0 else 2)
    x = layers.Dropout(0.2)(layers.Flatten()(x))
    hidden = layers.Dense(EMBED_DIM, name="hidden")(x)
    x = layers.Dropout(0.2)(layers.ReLU()(hidden))
    probs = layers.Dense(n_classes, activation="softmax", name="probs")(x)
    return tf.keras.Model(inp, [probs, layers.UnitNormalization(name="embedding")(hidden)])


def _bn(layers: Any) -> Any:
    """Batch norm whose running statistics settle within a few dozen batches (the default 0.99
    lags by hundreds, and a net trained for a few thousand steps then answers nothing)."""
    return layers.BatchNormalization(momentum=0.9)


def _separable(layers: Any, x: Any, filters: int, stride: int = 1, dilation: int = 1) -> Any:
    """Depthwise 3x3 then pointwise 1x1: a tenth of a full convolution's work."""
    x = layers.DepthwiseConv2D(3, strides=stride, dilation_rate=dilation, padding="same", use_bias=False)(x)
    x = layers.ReLU()(_bn(layers)(x))
    x = layers.Conv2D(filters, 1, use_bias=False)(x)
    return layers.ReLU()(_bn(layers)(x))


def build_outline(input_wh: tuple[int, int] | None = None) -> Any:
    """The outline model: a small U-Net of separable convolutions on frames of ``input_wh`` (any
    multiple of 16 when None, for training), three classes (table, card, outline) per pixel.
    Dilated layers at 1/8 and 1/16 scale see a whole card and its surroundings, which a faint
    outline on a white table needs; the last layer mixes in the raw pixels for a sharp border."""
    import tensorflow as tf

    layers = tf.keras.layers
    hw = (input_wh[1], input_wh[0]) if input_wh else (None, None)
    inp = tf.keras.Input((*hw, 3), name="image")
    s1 = layers.ReLU()(_bn(layers)(layers.Conv2D(16, 3, strides=2, padding="same", use_bias=False)(inp)))
    s1 = _separable(layers, s1, 16)
    s2 = _separable(layers, _separable(layers, s1, 32, 2), 32)
    s3 = _separable(layers, s2, 64, 2)
    s3 = _separable(layers, _separable(layers, s3, 64, dilation=2), 64, dilation=4)
    s4 = _separable(layers, s3, 128, 2)
    s4 = _separable(layers, _separable(layers, s4, 128, dilation=2), 128, dilation=4)
    x = s4
    for skip, filters in ((s3, 64), (s2, 32), (s1, 16)):
        x = layers.Concatenate()([layers.UpSampling2D(2, interpolation="bilinear")(x), skip])
        x = layers.ReLU()(_bn(layers)(layers.Conv2D(filters, 1, use_bias=False)(x)))
        x = _separable(layers, x, filters)
    x = layers.Concatenate()([layers.UpSampling2D(2, interpolation="bilinear")(x), inp])
    x = layers.Conv2D(8, 1, activation="relu")(x)
    return tf.keras.Model(inp, layers.Conv2D(3, 1, activation="softmax", name="classes")(x))


def build_pips(side: int, n_classes: int) -> Any:
    """The pip model: two blocks of two convolutions and a small dense head, 2.4 MFLOP a pip.
    A model of a third of its work (one 8- and one 16-wide convolution, then 32) read held-out
    scenes' blurred clubs less surely: 6 cards named as another against 4 (models/MODEL.md)."""
    import tensorflow as tf

    layers = tf.keras.layers
    inp = tf.keras.Input((side, side, 1), name="pip")
    x = _block(layers, inp, 16, 2)
    x = _block(layers, x, 32, 2)
    x = layers.Dense(64, activation="relu")(layers.Flatten()(x))
    return tf.keras.Model(inp, layers.Dense(n_classes, activation="softmax", name="suit")(x))
