"""Every tuned number of the vision pipeline, grouped by the stage that reads it.

Each group is a frozen dataclass; :data:`PARAMS` is the set the kiosk ships, and
``python -c "from kiosk.vision.params import PARAMS; print(PARAMS)"`` prints it. A field's comment
says what it controls and in which unit. Unless a comment says otherwise, a number was chosen on
the held-out rendered scenes (``bench/bench_detect.py``, with ``--overlap`` for piles), the real
photos of ``edje-tfod`` (``bench/bench_real_photos.py``) and the empty tables of
``bench/bench_no_card.py``, and kept only where none of them named a card wrongly.

Shares of a card are of its area unless they say otherwise; "the table's card" is the median
size of the cards seen whole in a frame, known once :attr:`SelectParams.table_cards` of them are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass(frozen=True)
class DetectorConfig:
    """A detector's switches, and sizes in units that do not depend on one table: fractions of
    the frame, ratios, angles (the kiosk's ``[vision]`` settings feed ``outline_model`` and
    ``model_threads``)."""

    work_side: int = 640  # long side of the analysis copy, pixels
    min_area: float = 0.003  # smallest card, as a fraction of the frame's area
    max_area: float = 0.6  # largest card of the usual size, as a fraction of the frame's area
    #: A card filling more of the frame than ``max_area``, up to this, is a close-up (a photo of
    #: one card, a camera mounted low): offered apart from the cards of the usual size
    close_up_area: float = 0.95
    aspect_tolerance: float = 0.2  # accepted |log(aspect / CARD_ASPECT)| of a quad
    min_fill: float = 0.88  # contour area / quad area of a plain quad
    min_coverage: float = 0.95  # foreground share of a completed (partial) quad
    corner_angle: tuple[float, float] = (62.0, 118.0)  # degrees: a card corner under perspective
    nms_iou: float = 0.45  # IoU at which two candidates clash (one is kept)
    max_cards: int = 32  # cards kept a frame at most
    refine: bool = True  # refine the corners to sub-pixel on the full frame
    outline_model: bool = True  # use models/outline.tflite when it is there
    hand_cues: bool = True  # the whiteness and edge cues (needed without the outline model)
    model_threads: int = 1  # threads the outline model may use (the kiosk's [vision] model_threads)


@dataclass(frozen=True)
class ProposeParams:
    """Turning the cues' outlines into candidate cards (:mod:`kiosk.vision.propose`)."""

    #: Share of its smallest rectangle a card region of the outline model fills ...
    soft_fill: float = 0.8
    #: ... or at least this share, where its convex hull fills ``soft_fill`` (a card with little
    #: ink leaves the model unsure inside: its region is notched)
    soft_notched: float = 0.6
    #: Score factor of a card from the outline model's soft regions: where a threshold's sharp
    #: outline sees the same card, the sharp one wins
    soft_score: float = 0.85
    #: A plain quad's score loses this many times the distance (over the square root of its
    #: area) its contour's hull spills out of it: a side fitted through an index that notches
    #: the outline cuts a corner off the card
    spill: float = 3.0
    #: A model region longer than this (long side / short side) is more than a card and a
    #: neighbour's strip: it is not cut to a card at either end
    max_merged_aspect: float = 2.6
    #: A model region of card shape and this many times the table's card area is two cards side
    #: by side that the model merged (two poker cards side by side are nearly card-shaped)
    pair_area: float = 1.6
    #: A frame the outline model calls card over more than this share is nothing it was trained
    #: on (noise, a wall, a sheet held to the lens): its maps are not used
    max_card_share: float = 0.7
    #: The steepest view of a card taken (:mod:`kiosk.vision.tilt`) but where the frame's view
    #: is as steep: log of its anisotropy, 0.5 is seen about 53 degrees from square on
    max_tilt: float = 0.5
    #: A quad whose farthest corner lies this many times as far from the camera as its nearest
    #: (how much it converges) is no card's view: a card spans a small part of the view's depth
    max_depth: float = 1.6
    tilt_inlier: float = 0.15  # a card seen whole fits the frame's view within this, or does not set it
    #: How much the frame's view is held towards one that does not vary over the frame (a fit on
    #: three or four cards would otherwise bend to a piece among them)
    tilt_ridge: float = 0.05
    #: A frame is seen at a tilt only where its view takes this many more quads as cards than the
    #: view from above (:meth:`kiosk.vision.tilt.Tilt.fitted`), and is fitted only where this
    #: many quads lack a card's aspect (fewer are pieces of odd shape, which a fit bends to) ...
    tilt_gain: int = 3
    #: ... or where it is this far from the view from above at the frame's centre (log of a
    #: card's anisotropy; 0.15 is about 31 degrees), whatever share of its cards pass from above
    tilt_plain: float = 0.15
    #: A quad sets the frame's view only where its two views (either side taken as the card's
    #: short side) differ in length by this much: one within about 10 % of square fits either
    tilt_way: float = 0.2
    #: Triples of quads through which views are tried to start the frame's view from, at most
    tilt_samples: int = 120


@dataclass(frozen=True)
class CompleteParams:
    """Completing cards from the visible corners of outlines that are not quads
    (:mod:`kiosk.vision.complete`)."""

    #: Card sizes tried, as factors of the table's card, when completing a card from one corner
    #: (cards nearer the camera look larger)
    size_steps: tuple[float, ...] = (0.94, 1.0, 1.06)
    #: With the outline model, a completion must lie this much on what it calls card: its union
    #: of cards holds a hidden card, a completion out over a pale table it does not; low, as the
    #: model is unsure of a card with little ink on a striped cloth
    completed_agreement: float = 0.3
    #: An outline is completed only where this share of the smallest card is not yet inside a
    #: card found whole (a card under others shows a corner of about this size)
    unexplained: float = 0.25
    #: A card completed past the frame's edge must have this share of it in the frame
    min_in_frame: float = 0.5
    #: Two completions with every corner within this share of the short side put a card in the
    #: same place
    same_place: float = 0.12
    #: Each completion in the same place raises a completion's score by this factor ...
    agreement_bonus: float = 0.2
    agreeing: int = 3  # ... counted up to this many: the card most corners point at wins a clash
    #: A card completed from a whole side may run under something that is no card (a book, a
    #: rug): it needs only this share on the foreground ...
    occluded_coverage: float = 0.5
    occluded_score: float = 0.5  # ... scores this factor of a completion's ...
    occluded_size: float = 1.3  # ... and is at most this many table cards in area
    #: Any completion, or card cut from a merged model region, is at most this many table cards
    #: in area: a larger one lies across a pile and would replace a card seen whole inside it
    completed_size: float = 2.0


@dataclass(frozen=True)
class SelectParams:
    """Choosing among the candidates: margins, sizes, suppression, alternates
    (:mod:`kiosk.vision.select`)."""

    #: A candidate under this share of the table's card is no card (an index box, a pip, a
    #: corner of the picture): cards on one table are at about the same distance from the camera
    smallest_card: float = 0.3
    table_cards: int = 3  # cards seen whole that set the table's card size
    #: On a table round it this share of the frame's paper white or paler, an outline model's
    #: candidate is kept without a white margin
    white_table: float = 0.5
    #: A card's margin this many times as white as the table round it is paper even far from the
    #: frame's brightest white (a card in the shade of a lamp)
    shaded_paper: float = 1.6
    #: A quad within a completed card and under this share of its area is a piece of it (an index
    #: box, a pip, a corner of the picture): the completion replaces it
    piece: float = 0.3
    #: A quad seen whole within a card and under this share of its area is its index box or a pip
    #: (3 to 6 % of a card): no clash, both are kept and named or refused
    inner_piece: float = 0.1
    same_outline: float = 0.85  # IoU at which two quads are one outline, not an alternate worth a look
    max_alternates: int = 12  # alternates kept per card: those worth a look are few, clutter's many
    alternate_size: float = 2.5  # the most an alternate's area differs from its winner's, either way
    close_ups: int = 1  # close-ups offered a frame at most: one card filling a picture leaves no room
    #: A glance accounts for a frame where the model's card pixels outside every outline found
    #: make no piece of this share of a card: elsewhere a card may lie that only the hand-set
    #: cues outline
    glance_unseen: float = 0.05


@dataclass(frozen=True)
class RefitParams:
    """Refitting a refused outline to edges further out than :func:`~kiosk.vision.refine.refine_quads`
    reaches (:meth:`kiosk.vision.detect.Detector.refit`)."""

    #: Reach of the refit, as a share of the outline's short side: on a pale table an outline may
    #: lie a pip row off its card, and its index crops then cut the wrong place
    reach: float = 0.15
    moved: float = 2.0  # pixels: a refit moving no corner further is the outline as it was


@dataclass(frozen=True)
class LookParams:
    """Second looks: the other outlines read where a card's first outline is refused
    (:mod:`kiosk.vision.looks`, :mod:`kiosk.vision.naming`)."""

    #: A second look names a card at this confidence or surer (a first look at the identifier's
    #: own bar): every extra outline read is one more chance to name clutter
    confidence: float = 0.85
    completed_confidence: float = 0.85  # a completed card's bar, unless both its corners read it
    max_looks: int = 40  # outlines read a frame at most in second looks
    #: A refused outline's first this many alternates are read before any outline's fan ends and
    #: picture frame, the rest in looks left over
    first_alternates: int = 8
    #: A window across a fan is a guess at a card's place, a dozen to a fan: it names a card at
    #: this confidence, and not with a corner at a named card's corner
    slice_confidence: float = 0.9
    #: Windows across a fan lie this share of a card's width apart; a corner within this share of
    #: a card's width of a named card's corner reads that card's index
    fan_step: float = 0.1
    #: A quad more square than this (long side over short) may be a fanned pair either way: its
    #: pair of cards as wide as its sides' ends is sought both ways across it
    pair_aspect: float = 1.2
    frame_in_card: tuple[float, float] = (0.72, 0.85)  # a court's picture frame, shares of its sides
    #: A card seen by its print's symmetry over a found outline of at least this IoU (and under
    #: :attr:`SelectParams.same_outline`) is read first where that outline is refused
    symmetric_over: float = 0.2
    #: Refused outlines a frame leaning to a card (read at :attr:`PipParams.guess_confidence` or
    #: more) that have card shapes fitted round them (each costs about 10 ms)
    max_guessed: int = 3
    #: Where no card shape is read by both corners, the search runs again closer round this many
    #: shapes that one corner read
    closer_again: int = 2
    #: Refused outlines read under :attr:`PipParams.guess_confidence`, lying apart from every card
    #: named (IoU under ``apart``), that have card shapes fitted round them, best-scored first
    max_apart: int = 2
    apart: float = 0.1  # IoU under which a refused outline lies apart from a named card
    #: A refused outline whose second look named a card covering under this share of it has card
    #: shapes fitted round its far end (two cards crossing at an angle make one outline)
    part_named: float = 0.6
    one_card: float = 0.7  # IoU at which two outlines are one card, whatever they read (fans overlap less)
    #: A completed outline named by one corner is read again at a whole card's length where that
    #: is this many times its own (:mod:`kiosk.vision.full_length`)
    lengthen: tuple[float, float] = (1.1, 2.5)


class Search(NamedTuple):
    """Where :func:`kiosk.vision.card_fit.card_shapes` looks round an outline: turned up to
    ``turn`` degrees either way in steps of ``step``; widths from 1 - ``shrink`` to 1 + ``grow``
    times the outline's (from its area); centres moved up to ``shift`` of that width along either
    axis; on the picture scaled so that the card is ``width`` pixels wide; two rectangles
    overlapping by more than ``same`` (IoU) are one answer, and at most ``most`` are given."""

    turn: float
    step: float
    shrink: float
    grow: float
    shift: float
    width: float
    same: float
    most: int


@dataclass(frozen=True)
class CardFitParams:
    """Card-shaped rectangles fitted to the edges round a loose outline (:mod:`kiosk.vision.card_fit`)."""

    #: Round a loose outline: at 32 px a 2-degree turn moves a corner a pixel, and the
    #: refinement on the full picture does the rest
    around: Search = Search(turn=16.0, step=2.0, shrink=0.2, grow=0.25, shift=0.25, width=32.0, same=0.8, most=6)
    #: Round a rectangle that one corner read: a card a pixel or two off at 32 px shows one index
    #: whole and cuts the other
    closer: Search = Search(turn=4.0, step=1.0, shrink=0.08, grow=0.08, shift=0.08, width=64.0, same=0.95, most=4)
    #: Edge pixels: gradient magnitude (3x3 Sobel on 0-255) over this and over the surroundings'
    #: upper quartile (a textured table's own edges are not all counted)
    min_edge: float = 24.0
    rim_weight: float = 3.0  # how much clutter just inside a rectangle's sides counts against it


@dataclass(frozen=True)
class ReadParams:
    """Reading a corner index (:mod:`kiosk.vision.index_reader`): the bars of an answer and the
    further readings of an unsure corner."""

    min_confidence: float = 0.6  # the probability an answer needs; below, it is refused
    min_margin: float = 0.3  # the lead over the second guess an answer needs
    #: A corner read less surely is read again, shifted, unless it is ``sure_none`` sure that it
    #: shows no card (clutter: most of a busy table's outlines)
    sure: float = 0.99
    sure_none: float = 0.9  # probability of no card above which a corner is not read again
    #: A card whose two corners the first index member reads as one card this surely is not read
    #: by the other members (their mean would refuse a few such cards and name no other)
    first_alone: float = 0.9999
    #: The shifts of a second reading, in fractions of the crop: an unsure reading often hangs on
    #: where the crop's edges cut a glyph (within the +-10 % the model was trained on)
    shifts: tuple[tuple[float, float], ...] = ((0.06, 0.0), (-0.06, 0.0), (0.0, 0.06), (0.0, -0.06))
    #: The scales of a third reading, for a corner still refused: an outline a little off the
    #: card's size shows the index larger or smaller than the model reads it best (chosen on
    #: ``pp2021-corners`` and synthetic corners, ``bench/bench_identify.py``)
    zooms: tuple[float, ...] = (0.92, 1.08)
    #: The widths of a fourth reading, for a corner still refused: real brands print indices
    #: narrower than the generator draws them (chosen as ``zooms``)
    widenings: tuple[float, ...] = (1.25, 1.5, 1.75)


@dataclass(frozen=True)
class PipParams:
    """Checking a number card's index against its pips (:mod:`kiosk.vision.pip_check`)."""

    pip_confidence: float = 0.85  # mean probability at which the pips' suit overrules the index's
    #: Two pips or more, up to the index's number, read as its suit under this mean probability
    #: contradict it: the card is refused
    pip_against: float = 0.2
    #: Pips choosing between two numbers by their count must be read this surely (pips cut short
    #: lower the mean, and are also where some are hidden)
    pip_count_confidence: float = 0.9
    #: Pixels: a card narrower than this (the mean of its short sides) shows its index's suit sign
    #: a few pixels tall, where a club reads as a spade; its pips must confirm a black number
    #: card or ace (court cards, which have none, are named by their index)
    small_card_px: float = 90.0
    #: An index answer under this whose pips are surely counted as another number is refused (a
    #: surer index keeps its answer: a card under another shows fewer pips than its number)
    unsure_index: float = 0.85
    #: A corner too unsure to name its card still tells the pips which number to count when its
    #: guess has this probability
    guess_confidence: float = 0.2
    #: A corner too unsure to name its card but leaning this much to the other corner's rank in
    #: another suit of its colour contradicts that corner
    other_suit_lean: float = 0.5


@dataclass(frozen=True)
class SymmetryParams:
    """Cards found by their print's half-turn symmetry where no outline shows
    (:mod:`kiosk.vision.symmetry`)."""

    #: Ink is this many grey levels darker than the local paper (on the frame's darkest channel,
    #: where red print is dark too) ...
    ink_step: int = 45
    table_step: int = 12  # ... and the table counts as white within this many grey levels of the paper
    cell: float = 3.0  # the vote grid's cell, pixels of the analysis copy
    min_votes: int = 3  # midpoints of alike blob pairs a card's centre needs
    symmetric_share: float = 0.7  # share of the ink round a centre that must have a partner across it
    margin: tuple[float, float] = (0.04, 0.03)  # a card's print-free margin, shares of its sides
    print_aspect: tuple[float, float] = (1.2, 1.75)  # long over short side of the print's box


@dataclass(frozen=True)
class StillParams:
    """The other views of a still picture that names no card at first (:mod:`kiosk.vision.recognize`),
    chosen on ``bench/bench_close_up.py``, ``edje-tfod`` and pictures of no card."""

    #: A picture that names no card is looked at in the middle of a frame this many times its size,
    #: the rest its own edge repeated: a photo of one card then shows it at a table's scale
    zoom_out: int = 3
    #: Pixels: the picture's long side at most in the zoomed views (a card filling half of it is
    #: still read from some 600 pixels, and a 12-megapixel photo does not become a huge frame)
    view_side: int = 1280
    #: A picture this many times as tall as wide is also looked at turned a quarter: the outline
    #: model's input is landscape, and a portrait photo's cards fall below the smallest it learnt
    turn_aspect: float = 1.25
    #: Still nothing named: the picture this many times as large, in tiles of its own size, so that
    #: a small card on a busy floor is seen as large as the outline model learnt cards ...
    zoom_in: float = 1.5
    tiles_agreeing: int = 2  # ... a card named only where this many overlapping tiles name it
    same_place: float = 0.6  # IoU at which two views' outlines are one card (two names there: none)


@dataclass(frozen=True)
class GlyphParams:
    """Finding a corner index by its ink (:mod:`kiosk.vision.glyphs`), wherever a printing puts it."""

    corner: tuple[float, float] = (0.3, 0.42)  # the upright face's share searched in each corner
    paper_window: int = 21  # face pixels: the square the paper level round a pixel is taken over (> any stroke)
    ink_ratio: float = 0.72  # ink is darker than this share of the local paper level
    ink_blur: float = 1.0  # face pixels: the ink map's blur, so blurred and sharp glyphs compare alike
    min_area: int = 12  # face pixels a glyph covers at least (specks and print texture are less)
    max_glyph: tuple[float, float] = (0.28, 0.3)  # shares of the face a glyph spans at most (longer: frame lines)
    rim: int = 2  # face pixels: components this close to the outer sides are the card's rim or table
    frame_line: tuple[float, float] = (0.15, 0.02)  # a frame line: run (share of the face), width (of its width)
    touch: float = 0.08  # share of the rank's height: a component this close within its lines is part of it
    #: How much a component's distance down the card counts against its distance from the side
    #: edge when choosing the rank (an index runs along the side edge, its rank at the top)
    down_weight: float = 0.5
    #: Ink levels (0-1 of the face's paper-to-darkest scale) a suit sign is looked for at: a sign
    #: touching a frame line or a ring at one level stands apart at a darker one
    sign_levels: tuple[float, ...] = (0.3, 0.5, 0.7)
    min_sign_area: int = 30  # face pixels a suit sign covers at least
    max_sign_side: int = 60  # face pixels a suit sign's longer side spans at most
    sign_aspect: float = 1.8  # a suit sign is no more than this many times as long as wide
    sign_fill: float = 0.3  # share of its box a suit sign's ink fills at least
    digit_height: float = 0.2  # glyphs beside a rank within this share of its height are its digits
    edge: int = 12  # face pixels: ink wholly this close to an index crop's top or left is the card's edge
    alone_ink: float = 0.8  # rank alone: ink is darker than this share of the crop's palest pixel
    gap_band: float = 0.17  # share of a rank alone's height at either end its rows are not all inked across
    gap_ink: float = 0.5  # a row across a rank alone paler than this (paper 0, darkest 1) parts rank and suit


@dataclass(frozen=True)
class EnrolledParams:
    """Naming the cards of an enrolled standard printing (:mod:`kiosk.vision.enrolled`)."""

    #: Percent of the enrolled indices' reach the compared window holds (plus ``window_pad`` face
    #: pixels); the test index is searched over shifts of up to ``max_shift`` face pixels
    reach_share: float = 90
    window_pad: int = 2  # face pixels added round the compared window
    max_shift: int = 3  # face pixels: the largest shift the test index is searched over
    max_compared: int = 900  # windows of more pixels are compared shrunk by a whole factor
    #: Correlation (-1..1) the best rank needs, and its lead over the best other rank; a number
    #: card whose pips count its rank needs only ``min_counted_margin``
    min_rank_score: float = 0.72
    min_rank_margin: float = 0.1  # the best rank's lead over the best other rank
    min_counted_margin: float = 0.03  # that lead where the pips count the rank
    min_colour_lead: float = 0.4  # the ink's redness lies this share from the colours' midpoint
    min_pip_confidence: float = 0.9  # the pip model's mean probability a suit reading needs
    min_placed_pips: int = 2  # a number card's pips found at its printing's pip places that say its suit
    #: Patch pixels (of 16) the printing's pips are also kept blurred by as suit templates
    sign_blurs: tuple[float, ...] = (0.8, 1.5)
    #: Face pixels the paper round a sign in a ring is grown by, each in turn, to join the pieces
    #: a sign touching its ring parts it into (gaps up to twice as wide)
    ring_joins: tuple[int, ...] = (2, 5)
    #: Two suit signs are at one court's spot where their centres lie within this share of the
    #: spot's side (at least ``min_spot_offset`` face pixels) and their sides within ``spot_size_ratio``
    spot_offset: float = 0.5
    place_offset: float = 0.35  # the same share at a number card's pip place
    min_spot_offset: float = 6.0  # face pixels: the least centre offset allowed at one spot
    spot_size_ratio: float = 1.35  # the most one sign's side may exceed the other's at one spot
    #: A printing's index suit glyphs are read only where this share of its enrolled ones or more
    #: read as their own suit against the other cards' (a printing without a suit in its index
    #: fails this); a glyph read needs a correlation (-1..1) of ``min_suit_score`` and a lead of
    #: ``min_suit_margin`` over the best glyph of another suit
    min_suit_agreement: float = 0.6
    min_suit_score: float = 0.5  # the correlation the best enrolled suit glyph needs
    min_suit_margin: float = 0.15  # its lead over the best glyph of another suit


@dataclass(frozen=True)
class GlyphReaderParams:
    """The glyph reader's second look at an enrolled printing's index (:mod:`kiosk.vision.glyph_reader`),
    chosen on ``bench/bench_enroll.py``'s foreign-low and -side layouts, foreign-narrow held out."""

    #: Probability a corner's rank glyph or suit glyph reading needs to count: a counted reading
    #: that differs from the enrolled reader's refuses the card, one that agrees vouches for it
    #: (a smaller rank lead; a number card's suit where its pips are not read, with an enrolled
    #: suit glyph that says the same)
    sure_glyph_rank: float = 0.9
    sure_glyph_suit: float = 0.9  # the same for a suit glyph


@dataclass(frozen=True)
class GlyphFallbackParams:
    """Naming, by their located glyphs, the cards of an unenrolled index deck that the index model
    refuses (:mod:`kiosk.vision.glyph_fallback`), chosen on ``bench/bench_glyph_fallback.py``'s
    foreign-low and foreign-side layouts and the train split of ``edje-tfod``."""

    sure_rank: float = 0.9  # glyph reader probability a corner's rank reading needs to name a rank
    sure_suit: float = 0.9  # the same for a suit glyph (an ace's or court's suit: both corners)
    pip_confidence: float = 0.9  # the pip model's mean probability the pips' suit needs (number cards)
    red_redness: float = 0.2  # index ink redness (:attr:`CornerIndex.redness`) at which it is red
    black_redness: float = 0.08  # at or below it the ink is black
    colour_needed: bool = False  # whether a card whose ink colour is unsure is refused
    court_pips: int = 2  # the most pips an ace or court may show counted (its emblems); more: a number card
    #: The decks whose refused cards are read by their glyphs: the glyph reader knows the ranks and
    #: suits of the French-suited index decks (the kiosk's own affiche-belge is read by its model)
    decks: tuple[str, ...] = ("standard-52", "piquet-32")


@dataclass(frozen=True)
class ArtParams:
    """Reading the kiosk's own poster deck by its art (:mod:`kiosk.vision.art`,
    :mod:`kiosk.vision.poster_reader`)."""

    decks: tuple[str, ...] = ("affiche-belge",)  # the decks printed from the kiosk's art
    #: Fractions (x0, y0, x1, y1) of a card's face matched, its poster's middle clear of the indices,
    #: searched for within ``search`` of the face, at each of ``zooms``
    art: tuple[float, float, float, float] = (0.22, 0.22, 0.78, 0.78)
    search: tuple[float, float, float, float] = (0.12, 0.12, 0.88, 0.88)  # fractions of the face
    zooms: tuple[float, ...] = (0.9, 1.0, 1.1)  # an outline lying off the card shows the art scaled
    scale_down: int = 4  # the faces are compared at FACE_SIZE divided by this
    blur: float = 0.02  # Gaussian sigma of the blur before shrinking, a share of the face's width
    #: A card the index reads as a Manneken-Pis is the one whose art it matches at ``twin_score``
    #: or better and ``twin_lead`` ahead of the other's (the correlation a twin's answer needs)
    twin_score: float = 0.6
    twin_lead: float = 0.1  # the lead over the other Manneken-Pis' art a twin's answer needs
    #: A card the index model refuses is read by its art where its best guess is this sure (the
    #: guess's suit), its art matches one of the suit's posters at ``suit_score`` and leads the
    #: suit's other posters by ``suit_lead``
    min_guess: float = 0.25
    suit_score: float = 0.9  # the correlation with the best poster of the guessed suit needed
    suit_lead: float = 0.05  # the lead of the best poster of the guessed suit over the next


@dataclass(frozen=True)
class StripParams:
    """The card under a named card where a strip of it shows beyond one of its sides
    (:mod:`kiosk.vision.strips`)."""

    along: tuple[float, float] = (0.15, 0.85)  # the stretch of a side probed, as shares of it
    samples: int = 12  # points probed along that stretch
    reach: float = 0.7  # probed out to this share of the card's size across the side ...
    steps: int = 14  # ... in this many steps
    #: A strip is paper at this share of the named card's paper level or paler (the top card's
    #: shadow falls on it), from the side out ...
    strip_floor: float = 0.5
    contrast: float = 0.75  # ... ending where two steps are darker than its darkest by this factor
    #: A strip ending this far out (shares of the card's size across the side) is a card under
    #: it, moved across by that much
    strip: tuple[float, float] = (0.15, 0.65)


@dataclass(frozen=True)
class VisionParams:
    """The whole parameter set, one group per stage."""

    propose: ProposeParams = field(default_factory=ProposeParams)
    complete: CompleteParams = field(default_factory=CompleteParams)
    select: SelectParams = field(default_factory=SelectParams)
    refit: RefitParams = field(default_factory=RefitParams)
    looks: LookParams = field(default_factory=LookParams)
    card_fit: CardFitParams = field(default_factory=CardFitParams)
    read: ReadParams = field(default_factory=ReadParams)
    pips: PipParams = field(default_factory=PipParams)
    symmetry: SymmetryParams = field(default_factory=SymmetryParams)
    still: StillParams = field(default_factory=StillParams)
    glyphs: GlyphParams = field(default_factory=GlyphParams)
    enrolled: EnrolledParams = field(default_factory=EnrolledParams)
    glyph_reader: GlyphReaderParams = field(default_factory=GlyphReaderParams)
    glyph_fallback: GlyphFallbackParams = field(default_factory=GlyphFallbackParams)
    art: ArtParams = field(default_factory=ArtParams)
    strips: StripParams = field(default_factory=StripParams)


#: The parameters the kiosk ships with; the stages read their group of it.
PARAMS = VisionParams()
