"""Cues of English that tell the parts of a behavioral (STAR) answer apart, read from one sentence.

Each cue is general: tense and time markers, who the subject is, phrases of responsibility,
outcome verbs and measures, hedges and filler. None is tied to a question or a topic. star.py
weighs them into a part per sentence; this module only says which cues a sentence carries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


def _words(text: str) -> str:
    return "|".join(sorted(set(text.split()), key=len, reverse=True))


# Past forms that do not end in -ed. Ambiguous ones (set, put, cut, read...) count only right
# after a subject, where a narrative uses them as past.
_IRREGULAR_PAST = _words(
    """was were had did made got took went came saw found told said led ran built wrote sent gave
    began became brought bought thought felt knew left kept spent met held chose drove grew fell rose
    won lost paid sat stood understood caught taught sought fought overrode forgot froze broke spoke
    woke hid drew threw struck stuck dug hung slid shot fed dealt meant heard sold laid shook mistook
    undertook overtook overcame withdrew oversaw underwent wasn't weren't didn't hadn't couldn't"""
)
_AMBIGUOUS_PAST = _words("set put cut split hit let read spread shut quit")
# Past forms of being, having, knowing and wanting: they describe a state, not something done.
_STATIVE = _words(
    """was were had wasn't weren't hadn't didn't couldn't thought felt knew wanted needed believed
    expected assumed seemed looked liked loved hated hoped wished meant remembered understood
    realized realised noticed discovered learned learnt reported complained struggled disagreed
    clashed argued"""
)
_NOT_PAST_ED = _words(
    """need speed feed seed bed red shed hundred embed proceed exceed succeed indeed breed bleed weed
    greed deed wed sled bled led fed"""
)
_PREFIX = r"(?:re-?|co-|over|under|mis)?"
_PAST = rf"(?:{_PREFIX}(?:{_IRREGULAR_PAST})|(?!(?:{_NOT_PAST_ED})\b)[a-z][a-z-]+ed)"
_ADVERBS = r"(?:[a-z]+ly|also|then|first|just|still|even|both|all|later|now|again|so|myself|quickly)"
_SELF = r"(?:i|i've)"
_GROUP = (
    r"(?:we|we've|they|the (?:[a-z-]+ ){0,2}(?:team|group|lead|manager|engineers?|folks|people)"
    r"|our (?:[a-z-]+ ){0,2}(?:team|group|lead|manager|director|engineers?)"
    r"|(?:my|our) (?:manager|lead|director|boss|mentor|teammates?|colleagues?)|someone|everyone)"
)
# Up to eight more words of the same clause (bounded, so a long run-on sentence stays linear).
_WITHIN_CLAUSE = r"(?: [^\s,;]+){0,8}?"
_BASE = r"(?!(?:been|had|have|be|not)\b)[a-z]+"
# Light verbs: "we had a meeting", "I held a review", "I had her present" are things done.
_LIGHT = (
    r"(?:had|held|took|gave|made|ran) (?:a|an|some|several|a few|two|three|weekly|daily|regular|one)"
    r" (?:[a-z-]+ ){0,2}(?:meetings?|talks?|calls?|chats?|conversations?|discussions?|looks?|sessions?"
    r"|reviews?|workshops?|one-on-ones?|1:1s?|retros?|walkthroughs?)\b|had (?:him|her|them|each)\b"
)
# Present forms after "I" or "we" that state a view or a state, not a deed.
_PRESENT_STATIVE = _words(
    """am are is was were have has had think feel believe guess mean know remember love like hate
    want need hope wish work don't do can could would should will might must also always usually
    never still often just really actually only generally tend try"""
)


# Verbs of an outcome reached or received: "we delivered nine days late" tells the result ("agreed
# to" is a decision, not an outcome).
_OUTCOME_VERBS = (
    _words(
        """shipped launched delivered landed finished completed succeeded renewed adopted approved accepted
    thanked praised promoted stopped resolved avoided prevented caught became met hit won saved beat
    recovered lost"""
    )
    + r"|agreed(?! to)|went with|settled on|opted for|made it(?= ?[,.!?]|$)"
)


def _acts(subject: str) -> str:
    verb = rf"(?:{_ADVERBS} ){{0,2}}"
    return (
        rf"{subject} {verb}(?!(?:{_STATIVE}|{_OUTCOME_VERBS})\b|kept [a-z]+ing){_PAST}\b"
        rf"|{subject} {verb}{_PREFIX}(?:{_AMBIGUOUS_PAST})\b"
        rf"|{subject} {verb}{_LIGHT}"
    )


SPEAKER_ACTS = re.compile(_acts(rf"\b{_SELF}"))
# Someone else acting, as the subject of a clause (not "the feature we picked was...").
_CLAUSE_START = r"(?:^|[,;:] |\b(?:and|so|then|but|because|when|after|once|until|while|before|first) )"
GROUP_ACTS = re.compile(_acts(rf"{_CLAUSE_START}(?:[a-z]+ly |also |then |together )?{_GROUP}\b"))
# A deed in the passive, its doer unsaid: "the data was checked", "several prompts were tried".
_AGENTIVE = _words(
    """checked tested tried built added fixed rewritten rebuilt retrained redesigned deployed evaluated
    measured analyzed analysed reviewed refactored migrated moved replaced removed cleaned relabeled
    relabelled collected gathered created written implemented introduced changed updated merged
    profiled investigated debugged traced documented automated optimized tuned simplified reworked
    organized scheduled escalated discussed compared benchmarked identified rolled reverted patched"""
)
PASSIVE_ACTS = re.compile(
    rf"\b(?:was|were|got|had been) (?:then |also |quickly |first |finally )?(?:{_AGENTIVE})\b"
)
# "I noticed", "I found out": finding something, an action once the work has started.
DISCOVERY = re.compile(
    r"\b(?:i|we) (?:[a-z]+ly |then |also |soon |quickly )?(?:noticed|realized|realised|discovered"
    r"|figured out|found out|spotted|saw that)\b"
)
# Deeds told in the present: "we pair each new hire", "so I go to my manager".
PRESENT_ACTS = re.compile(
    rf"\b(?:i|we) (?:also |then |just |usually |always |first )?(?!(?:{_PRESENT_STATIVE})\b)[a-z]+(?<!ed)"
    r"(?<!ing)\b(?! to\b)"
)
# "I would", "we could", "I'd": what the speaker would do, not what they did.
WOULD_DO = re.compile(
    rf"\b(?:i|we) (?:{_ADVERBS} ){{0,2}}(?:would|could|should|might|will|'d|can)\b(?!'|n't| have\b)"
    rf"|\byou (?:{_ADVERBS} ){{0,2}}(?:would|could)\b(?!'|n't| have\b)"
    rf"|\b(?:i|we|you)(?:'d|'ll) (?:{_ADVERBS} )?{_BASE}"
    r"|\b(?:my|the) (?:first |main |best )?(?:approach|step|move|instinct|plan|priority) (?:would|will) be\b"
    r"|\bif (?:i|we|you) (?:had|were|was|disagreed|saw|found|noticed|got|ran|have|see|find|notice)\b"
)
NO_EXPERIENCE = re.compile(
    r"\bi(?: haven't| have not| have never| never| don't have| did not have| didn't have|'ve never|'ve not)"
    r" (?:\w+ ){0,3}?(?:had|been|done|mentored|worked|faced|led|seen|experience|dealt|run|managed)\b"
    r"|\bi'm still\b|\bi am still\b|\bnot (?:yet|really) (?:had|been)\b"
    r"|\bi (?:can't|cannot|can not) (?:really )?(?:think of|recall|remember)\b"
    r"|\bi don't (?:really )?have (?:a|an|any) (?:\w+ )?(?:example|story|experience)\b"
)
PAST = re.compile(rf"\b{_PAST}\b")
# The speaker: "I", "me and a colleague", and the "you" of what one would do ("you'd ask them").
SPEAKER = re.compile(r"\b(?:i|i'd|i've|i'm|i'll)\b|^(?:\w+,? )?me and\b|\byou(?:'d| would| could)\b")
GROUP = re.compile(rf"\b{_GROUP}\b")

_DUTY = r"(?:task|job|goal|role|part|responsibility|mandate|mission|assignment|objective|remit|brief)"
TASK = re.compile(
    rf"\bmy (?!(?:last|previous|old|former|current|first|new|next)\b)(?:\w+ )?{_DUTY}(?: [\w-]+){{0,6}}?"
    r" (?:was|is|became)\b"
    rf"|\b(?:was|is) (?:[a-z]+ )?(?:of )?(?:on me|mine to|my (?:call|{_DUTY}))\b"
    r"|\bi(?: was| am|'m| became) (?:[a-z-]+ ){0,4}?(?:responsible|accountable|in charge|tasked|assigned"
    r"|charged|expected to|supposed to|brought in|hired (?:to|as)|the one responsible|on call"
    r"|the on-call|the owner|the one who had|on the hook|the point person|directly responsible)\b"
    r"|\bi (?:owned|own|had committed|committed to|signed up|volunteered|took ownership|took on)\b"
    r"|^as (?:the|her|his|their|its|our|a|an) (?:[\w-]+ ){0,3}?(?:owner|lead|mentor|on-call|on call)\b"
    r"|\bthat was given\b|\bwas given (?:\w+ ){0,2}(?:weeks|months|days|a|an)\b"
    r"|^(?:\w+,? )?(?:our|the) (?:main |primary |overall )?(?:goal|objective|target|mandate|mission)"
    r" (?:was|is)\b|\bi (?:took the lead|stepped up|volunteered) (?:on|to)\b"
    r"|\bset (?:myself|out) (?:the |a )?(?:goal|target|aim)\b|\b(?:my|the) (?:goal|aim|target) of\b"
    r"|\bi aimed to\b"
)
# Asked or obliged to do something: the task, unless a sentence says the task more plainly, and
# then the request is part of the situation ("my manager asked me to switch vendors").
TASK_REQUEST = re.compile(
    r"\bi (?:[a-z]+ )?(?:had|needed|was asked) to\b|\bi needed (?:[a-z]+ ){1,3}to\b"
    r"|\b(?:asked|wanted|needed|told|tasked|assigned|expected|put) me (?:to|in charge)\b"
)
# Phrases that announce an outcome.
RESULT_PHRASE = re.compile(
    r"\bas a result\b|\bin the end\b|\bended up\b|\beventually\b|\bafter (?:that|this|the (?:fix|change|"
    r"launch|relaunch|rollout|pilot))\b|\bsince then\b|\bhas since\b|\bthe (?:result|outcome|impact)"
    r" (?:was|is)\b|\bthat way\b|\bwhich (?:meant|let|allowed|saved)\b|\bthis (?:meant|led|let|allowed)\b"
    r"|\b(?:in )?total\b|\boverall\b|\baltogether\b|\bresult(?:ed|ing) in\b|\bleading to\b"
    r"|\b(?:this|that|which|it) led to\b"
    r"|^(?:so |and )?(?:this|that|it) (?:would|should|will|could) (?!have\b)"
    r"|\b(?:measure|judge|know) (?:its |my |our |the )?success\b|\bsuccess (?:would|will) (?:be|mean|look)\b"
)
# An outcome foreseen for something other than the speaker: "the problem would mostly go away".
PROJECTED = re.compile(
    rf"\b(?:the|this|that|it|everyone|everybody|people|users){_WITHIN_CLAUSE}(?<!\bi)(?<!\bwe)(?<!\byou)"
    r" (?:would|will)"
    r" (?!have\b)(?:[a-z]+ly )?[a-z]+"
)
# Time after the work: weaker, as a story's middle says it too ("within a week, the fraud team...").
LATER = re.compile(
    r"\bso far\b|\bhopefully\b|\bby (?:month|week|year|the end)\b|\bnow\b|\blater\b"
    r"|\bthe next (?:morning|day|week|month|quarter|year)\b|\bwithin (?:a|two|three|the next)\b"
)
LEARNED = re.compile(
    r"\bi (?:\w+ )?(?:learned|learnt|realized later|took away)\b|\blessons? learned\b|\bthe lesson\b"
    r"|\btaught me\b|\bmy (?:main |biggest |big )?takeaway\b|\bin hindsight\b|\blooking back\b"
    r"|\bnext time\b|\bif i (?:did|had) it (?:again|over)\b"
)
# Verbs of change ("went from", "dropped"), not in the infinitive of a plan ("to cut").
_CHANGE_VERBS = _words(
    """dropped fell rose grew shrank doubled halved tripled improved increased decreased reduced saved
    recovered beat outperformed won matched exceeded surpassed reached stayed stabilized cut lifted
    boosted lowered raised"""
)
CHANGE = re.compile(
    r"\b(?:went|go|goes|came|come) (?:back )?(?:up|down|from)\b"
    rf"|(?<!\bto )(?<!\bto help )\b(?:{_CHANGE_VERBS})\b"
    r"|\b(?:increase|decrease|drop|improvement|reduction|lift|jump|gain|speedup|saving|savings|fall|rise)"
    r" (?:of|in)\b"
)
# An outcome received or reached.
OUTCOME = re.compile(
    r"\b(?:shipped|launched|delivered|rolled out|landed|finished|completed|succeeded|renewed|"
    r"adopted|agreed(?! to)|approved|accepted|thanked|praised|promoted|stopped|resolved|avoided|prevented|"
    r"caught|became|become|worked fine|worked well|flagged|showed|continued|appreciated|went with|settled on|"
    r"decided on|opted for|(?:made|pulled) it(?: off)?(?= ?[,.!?]|$)|got it done|"
    r"got (?:a|the|an) (?:\w+ )?(?:offer|promotion|award)|(?:was|were|is|are) (?:\w+ )?(?:happy|"
    r"satisfied|pleased|postponed|delayed|shelved|cancell?ed|adopted|rolled out|fixed|rejected|"
    r"simpler|faster|better|cheaper|comfortable|officially|productive|less|more|fine|going))\b"
)
# An outcome told after the speaker's deed: "I added a check, and the next two migrations landed".
LATER_OUTCOME = re.compile(
    r"(?:,|\band|\bso|\bwhich|\bbut)\s+(?:the|our|it|its|we|he|she|they|this|that|every|each|no|all|"
    rf"my){_WITHIN_CLAUSE} (?:{_CHANGE_VERBS}|{_OUTCOME_VERBS}|went (?:up|down))\b"
)
# The sentence opens with the speaker's deed: "I profiled the operator, ...", "so then I rolled back".
LEADS_WITH_DEED = re.compile(
    _acts(r"^(?:(?:so|then|and|first|next|finally|instead|also|after that),? )*" + _SELF)
)
# A decision the speaker took part in, told after their deeds: "..., and we agreed on a tolerance".
JOINT_DECISION = re.compile(
    r"^(?:,|and|so|but)\s+we (?:then |together |all |both )?(?:agreed|settled on|went with|opted for)\b"
)
# The first clause tells an outcome someone else reached: "the team agreed, and...".
LEADS_WITH_OUTCOME = re.compile(
    r"^(?:so |and |then |in the end,? )?(?:the|my|our|it|he|she|they|everyone|we|this)"
    rf"{_WITHIN_CLAUSE} (?:{_OUTCOME_VERBS})\b"
)
# Where and when the story takes place, said as it starts.
_TIME_UNIT = r"(?:days|weeks|months|years|quarters)"
SETTING = re.compile(
    r"^(?:(?:so|okay|ok|well|yeah|and|right|um|uh|actually),? )*(?:at (?:a|an|my|our|the|one)\b"
    r"|in (?:my|our|a|an|one|the) (?:[a-z-]+ )?(?:previous|last|first|current|old|former|early|"
    r"internship|company|team|job|role|master's|phd|research|startup|lab|group|days)"
    r"|when (?:i|we) (?:was|were|joined|started|worked|first|led|ran|managed|moved|had)\b|during\b"
    r"|while (?:i|we) (?:was|were)\b"
    r"|(?:about |around )?(?:a|one|two|three|four|five|six|several|a few|many|a couple of|some) "
    rf"(?:{_TIME_UNIT}|days) (?:ago|in|into|before|after|later)\b"
    r"|one (?:day|night|morning|evening|afternoon|weekend|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday)\b|this (?:was|goes back|happened)\b|back (?:when|in)\b|a (?:while|few years"
    r"|couple of years) (?:ago|back)\b|on (?:a|an|my|our|one) (?:[\w-]+ ){0,3}(?:project|team)\b"
    r"|early (?:in|on)\b|earlier this year\b|previously\b|in \d{4}\b|as a (?:new|junior|senior|first)"
    r"|i (?:work|worked) at\b|i was at\b|i was (?:on|in) (?:the|a|an)\b)"
    r"|\blast (?:year|spring|summer|fall|autumn|winter|quarter|month|semester)\b"
    rf"|\b(?:a|two|three|four|five|a few|several|couple of) {_TIME_UNIT} ago\b"
    r"|\b(?:dealt with|had|faced|ran into|went through|experienced|saw) (?:exactly |something like )?"
    r"(?:this|that)(?: (?:situation|problem|issue))?\b(?! to)"
)
STATE = re.compile(
    r"\b(?:was|were) (?:[a-z]+ly )?[a-z]+ing\b|\bthere (?:was|were|is|are)\b|\bhad been\b"
    r"|\b(?:we|i|they|it|he|she) had (?:a|an|this|many|no|some|two|three|exactly|been)\b"
    r"|\bnobody\b|\bno one\b|\bturn(?:ed|s) out\b|\bstarted [a-z]+ing\b|\bkept [a-z]+ing\b"
    r"|\bwanted\b|\b(?:was|were) (?:too|very|so|not|late|already|suddenly|often|always|never)\b"
    r"|\b(?:reported|complained|struggled|underestimated|expected)\b"
    r"|^(?:our|the|my) (?:[a-z-]+ ){0,3}(?:is|are|was|were|had|has)\b"
    r"|\b(?:is|was|were|are|went) (?:\w+ )?(?:down|broken|failing|slow|wrong|missing|stuck|unhappy|flaky)\b"
    r"|\bevery (?:day|week|month|quarter|year|night)\b|\bby hand\b"
)
# How things usually went: "tickets often sat for days", "he would come to standup and...".
HABITUAL = re.compile(
    r"\b(?:often|usually|always|rarely|sometimes|constantly|regularly|routinely|typically|used to|whenever)\b"
    r"|\b(?:he|she|they|it|people|everyone) would (?:always |often |just )?[a-z]+"
)
# Filler, asides about the answer itself, feelings without an event, and a story that stops.
FILLER = re.compile(
    r"^(?:(?:so|okay|ok|well|yeah|oh|um+|uh+|hmm|right|honestly|man|wow),? )+(?:yeah|so)?[,.!]?$"
    r"|\bthat'?s (?:a |an )?(?:really |very |pretty |such a )?(?:good|great|interesting|tricky|tough|"
    r"hard|common|fun|big|difficult) (?:question|one)\b|\bbear with me\b|\blet me think\b"
    r"|\bthe (?:best|first|main|one|clearest) example\b|\bexample (?:that )?(?:stands out|comes to mind)"
    r"|\bcomes to mind\b|\ba (?:different|long|whole other) story\b|\bi won'?t go into\b"
    r"|\bhappens (?:to me )?all the time\b|\bplenty of\b|\bso many (?:of these|examples|times)\b"
    r"|\bit'?s complicated\b|\ba lot of (?:politics|back and forth|drama)\b"
    r"|\bi remember (?:i|being|feeling|thinking)\b"
    r"|\b(?:i was|i felt|it was|that was) (?:\w+ ){0,3}(?:stressful|embarrass\w*|frustrat\w*|awkward|scary)\b"
    r"|\bi (?:was|am) going to\b|\b(?:priorities|plans|things) (?:shifted|changed)\b"
    r"|\b(?:internship|contract|project|funding) (?:ended|got cancell?ed)\b"
    r"|\b(?:moved|switched|left) (?:to )?(?:teams|the company|a different|another (?:team|project|job))"
    r"|\b(?:to be fair|in (?:his|her|their) defen[cs]e|in fairness)\b|\bcan tell you how\b"
    r"|\b(?:was|is) (?:a |such a )?(?:long|slow|messy) (?:fight|process|story|battle|road|journey|saga)\b"
    r"|\bthis (?:is|one is) (?:very |so )?real\b|\bhas been there\b"
    r"|\b(?:i'm|i am) not (?:\w+ )?sure\b|\bi don't know (?:yet )?(?:if|whether)\b|\btime will tell\b"
    r"|\bthere was (?:a lot of |so much )(?:stress|pressure|drama|politics|back and forth)\b"
    r"|^(?!(?:so|oh|um|uh|well|okay|ok|and)\b)(?:[a-z]+ ){0,3}[a-z]+, (?:yeah|right|hmm|okay|ok|well)\b"
)
OPINION = re.compile(
    r"\b(?:i think|i believe|i feel like|in my (?:view|opinion|experience)|to me|honestly|to be honest)\b"
    r"|\?$"
    r"|\b(?:is|are) (?:always|the most|the best|really|very|healthy|much)\b|\bmaybe\b|\bperhaps\b"
    r"|\b(?:always|never) (?:want|wants|works?|helps?)\b|\bi don't blame\b|^anyway\b|\byou know\b"
    r"|\byou (?:\w+ )?(?:should|must|have to|need to|can't|can)\b"
    r"|\b(?:is|are) (?:a |an )?(?:really |very |super |so )?(?:important|key|crucial|critical|essential"
    r"|tricky|interesting|healthy|tough|difficult)\b"
    r"|^(?:most|many|all|a lot of|lots of|some) [a-z]+ (?:are|is|have|do|don't|need|tend|want)\b"
    r"|^(?:oh|um+|uh+|yeah|wow|hmm|well|okay|ok|sure|right|great|good|absolutely|definitely|yes)\b"
    r"(?:[ ,]+[\w']+){0,7}[.!?]?$"
)

_NUMBER_WORDS = _words(
    """zero two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty
    fifty sixty hundred hundreds thousand thousands million millions billion half twice double
    doubled triple tripled halved quadrupled third thirds dozen dozens couple percent"""
)
_UNITS = r"(?:second|minute|hour|day|week|month|quarter|year|point|percent|night|sprint)s?"
MEASURE = re.compile(
    rf"(?<![a-z])\d|%|\$|€|£|\b(?:{_NUMBER_WORDS})\b|\b(?:a|an|one|single|a few|several) (?:\w+ )?{_UNITS}\b"
    r"|\b[a-z]+fold\b"
)
# A question that asks what the speaker would do ("how would you...", "walk me through how you'd...",
# "what would you do if...", "imagine...") rather than for a past event or a habit; a polite "would
# you like" or "what would you say" asks no plan.
_ASKS_WHAT_YOU_WOULD = re.compile(
    r"\b(?:would|will|might|could|should) you (?!(?:like|love|prefer|say|describe|rate|call|consider|want"
    r"|mind|please|tell|share|give|walk me through (?:a|an|the|one|your))\b)"
    r"|\byou(?:'d| would| might) (?!(?:like|love|prefer|say|rather|want|have)\b)"
    r"|\b(?:imagine|suppose|what if|hypothetically|let's say)\b"
    r"|\bif you (?:were|joined|had|found|saw|got|inherited|noticed|discovered|started|took over|join|find"
    r"|see|get|are)\b"
)
_ASKS_WHAT_HAPPENED = re.compile(
    r"\btell (?:me|us) about\b|\bdescribe (?:a|an|the|one) (?:time|situation|occasion|case|moment)\b"
    r"|\b(?:a|one) time (?:when |that )?(?:you|your)\b|\bgive (?:me |us )?(?:an|one|a) example\b"
    r"|\b(?:what|how|which|why|when|where|who)(?: \w+){0,2}? did\b|\bdid you\b"
    r"|\bhave you (?:ever )?(?:had|faced|made|led|been|done|handled|worked|seen|dealt)\b"
)
# Behavioral questions that ask for no story and no plan: pay, motives, career goals, a last word.
_ASKS_NO_STORY = re.compile(
    r"\b(?:compensation|salary|pay) (?:expectations?|range|requirements?)\b"
    r"|\bexpectations? (?:for|on) (?:pay|salary)"
    r"|\bwhy (?:do|would) you want\b|\bwhy (?:this|our|the) (?:role|company|team|job|position)\b"
    r"|\bwhy should (?:we|i)\b|\bwhere (?:do|would) you (?:want|see|like)\b|\bin (?:five|5|ten|10) years\b"
    r"|\banything (?:else )?(?:you'd|you would) like to\b|\bquestions? for (?:us|me)\b"
)
_APOSTROPHE = str.maketrans({"’": "'", "‘": "'"})


@dataclass(frozen=True)
class Cues:
    """What one sentence says about itself; booleans, so star.py can weigh them."""

    speaker: bool  # "I" is in it
    speaker_acts: bool  # "I" + a verb of doing in the past ("I rolled back")
    group_acts: bool  # someone else did it ("we added", "the team fixed")
    present_acts: bool  # a deed in the present ("we pair each new hire")
    passive_acts: bool  # a deed in the passive ("the pipeline was fixed")
    discovery: bool  # "I noticed", "we found out"
    would_do: bool  # "I would", "we could", "if I had"
    no_experience: bool  # "I haven't been on call yet"
    past: bool  # any verb in the past
    task: bool  # "my job was", "I was responsible for"
    task_request: bool  # "I had to", "my manager asked me to"
    result_phrase: bool  # "as a result", "in the end", "after that"
    later: bool  # "so far", "now", "the next morning"
    projected: bool  # "the problem would go away"
    leads_with_outcome: bool  # "the team agreed, and..."
    learned: bool  # "I learned", "lesson learned"
    change: bool  # "went from", "dropped", "improved"
    outcome: bool  # "shipped", "renewed", "was happy"
    later_outcome: bool  # an outcome in a clause after the deed
    deeds_lead: bool  # opens with the speaker's deed, and no outcome of anything else follows them
    measure: bool  # a number, a percentage, a time or another measure
    setting: bool  # where or when: "at a fintech company", "last spring"
    state: bool  # how things were: "was running", "there was", "nobody knew"
    habitual: bool  # how things usually went: "often", "used to", "he would come"
    filler: bool  # hedges, filler, asides and a story that stops: "um, so", "anyway"
    opinion: bool  # "I think", "in my view", "maybe"


def normalised(text: str) -> str:
    return " ".join(text.translate(_APOSTROPHE).lower().split())


@lru_cache(maxsize=4096)
def read_cues(sentence: str) -> Cues:
    s = normalised(sentence)
    return Cues(
        speaker=bool(SPEAKER.search(s)),
        speaker_acts=bool(SPEAKER_ACTS.search(s)),
        group_acts=bool(GROUP_ACTS.search(s)),
        present_acts=bool(PRESENT_ACTS.search(s)),
        passive_acts=bool(PASSIVE_ACTS.search(s)),
        discovery=bool(DISCOVERY.search(s)),
        would_do=bool(WOULD_DO.search(s)),
        no_experience=bool(NO_EXPERIENCE.search(s)),
        past=bool(PAST.search(s)),
        task=bool(TASK.search(s)),
        task_request=bool(TASK_REQUEST.search(s)),
        result_phrase=bool(RESULT_PHRASE.search(s)),
        later=bool(LATER.search(s)),
        projected=bool(PROJECTED.search(s)),
        leads_with_outcome=bool(LEADS_WITH_OUTCOME.search(s)),
        learned=bool(LEARNED.search(s)),
        change=bool(CHANGE.search(s)),
        outcome=bool(OUTCOME.search(s)),
        later_outcome=bool(LATER_OUTCOME.search(s)),
        deeds_lead=deeds_lead(s),
        measure=bool(MEASURE.search(s)),
        setting=bool(SETTING.search(s)),
        state=bool(STATE.search(s)),
        habitual=bool(HABITUAL.search(s)),
        filler=bool(FILLER.search(s)),
        opinion=bool(OPINION.search(s)),
    )


def deeds_lead(s: str) -> bool:
    """Whether a (normalised) sentence opens with the speaker's deed and tells no outcome of
    anything else after the last of them: what the speaker measured or showed on the way, or a
    choice made together with them ("..., and we agreed on a tolerance"), is part of the action.
    "I added a check, and the next two migrations landed on time" ends with what came of it."""
    if not LEADS_WITH_DEED.search(s):
        return False
    last = max((m.start() for m in SPEAKER_ACTS.finditer(s)), default=0)
    return all(JOINT_DECISION.match(m.group()) for m in LATER_OUTCOME.finditer(s, last))


def asks_for_plan(prompt: str) -> bool:
    """Whether a question asks what the speaker would do, not about a time it happened: then an
    answer in the conditional is what was asked ("Walk me through how you would...")."""
    s = normalised(prompt)
    return bool(_ASKS_WHAT_YOU_WOULD.search(s)) and not _ASKS_WHAT_HAPPENED.search(s)


def asks_for_a_story(prompt: str) -> bool:
    """Whether a behavioral question asks for a story or a plan, which STAR coaching judges by its
    shape, rather than for pay, motives, career goals or a last word (no prompt: assumed so)."""
    return not _ASKS_NO_STORY.search(normalised(prompt))


def quantified(sentence: str) -> bool:
    """Whether a sentence gives a number, a percentage, a time or another measure."""
    return bool(MEASURE.search(normalised(sentence)))
