"""Word lists of the reference dialogue reader and question analysis.

The lists are those of hanzoai/semantic ``bench/locomo`` (talk.go, terms.go,
read.go at snapshot 0c787e9f), kept in the same order.  They are used only
for membership, never iterated to order an output.
"""

from __future__ import annotations


#: The reply that declines to answer, in the words the official scorer recognises.
DECLINE = "No information available"


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# First-person forms (apostrophes already dropped by normalise); they bind to the speaker.
FIRST = _set(
    "i im ive id ill me my mine myself we weve our ours us"
)

# Second-person forms; they bind to the person spoken to.
SECOND = _set(
    "you youre youve youd youll your yours yourself"
)

# Words that put a "not" on the predicate.
NEGATION = _set(
    "not nt no never none nothing dont didnt doesnt cant cannot wont "
    "wouldnt isnt arent wasnt werent havent hasnt hadnt couldnt shouldnt"
)

# Auxiliary verbs: a content verb right behind one takes its place.
AUXILIARY = _set(
    "is am are was were be been being have has had do does did will would "
    "can could should may might must got get"
)

# Common conversational verbs that head a predicate.
VERBS = _set(
    "went go goes going gone come came comes coming get got getting gotten "
    "make made makes making take took takes taking see saw sees seeing know "
    "knew knows think thought thinks want wanted wants like liked likes "
    "love loved loves need needed needs try tried tries feel felt feels "
    "find found finds give gave gives tell told tells say said says work "
    "worked works play played plays start started starts keep kept keeps "
    "let lets put puts mean meant read write wrote run ran move moved live "
    "lived lives learn learnt learned teach taught buy bought sell sold eat "
    "ate eats drink drank meet met hear heard hearing help helped helps "
    "spend spent visit visited join joined build built send sent bring "
    "brought leave left stay stayed adopt adopted plan planned finish "
    "finished win won lose lost hope hoped wish wished miss missed remember "
    "remembered enjoy enjoyed share shared volunteer volunteered"
)

# Function words and fillers: the seams between content runs.
STOP = _set(
    "a an the and or but so if then than that this these those there here "
    "it its of to in on at by for with about from into over under up down "
    "out off again once very just too also really quite such more most much "
    "many some any all both each few other another as is am are was were be "
    "been being have has had do does did will would can could should may "
    "might must not no nor only own same s t don dont didnt doesnt cant "
    "wont im ive id ill me my mine myself we our ours us you your yours "
    "yourself he him his she her hers they them their theirs i what which "
    "who whom when where why how while during before after because since "
    "until yeah yes ok okay oh wow hey hi hello thanks thank well um uh "
    "like lol haha sure right now still even ever never always named called"
)

# Words a question is phrased with; compared as Porter stems.
ASKED_WORDS = (
    "what when where who whom which why how did does do is are was were has "
    "have had would could will can according mentioned many much name names"
)

# The question words, in the order a reply looks for the first of them.
QUESTION_WORDS = ('when', 'what', 'where', 'who', 'why', 'how', 'which')

# Month names and the abbreviations the reader accepts ("may" included: the
# modal verb is read as the month, as in the reference).
MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sep": 9,
    "sept": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}

# Predicates that set a node type in the knowledge graph instead of an edge.
TYPE_PREDICATES = _set('type is_a isa instance_of rdf:type')
