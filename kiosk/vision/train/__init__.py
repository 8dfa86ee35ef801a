"""Training of the identification models (needs the ``train`` extra: TensorFlow).

``kiosk train --deck DECK --out models/`` rebuilds a shipped model: :mod:`.synth` draws card
corners of many made-up brands and "not a card" patches, :mod:`.augment` turns clean images into
camera-like ones, :mod:`.dataset` assembles labelled arrays (plus an optional folder of real
photos), :mod:`.model` defines the networks, :mod:`.fit` trains and :mod:`.export` writes the
quantized ``.tflite`` with its labels. Nothing here is imported at run time.
"""
