"""The rules juror's vocabulary of claims: direction, no-difference, significance, hedges.

Lower-cased surface words (not stems), so a list says exactly which words count. The template
summarizer has its own wording and imports none of this.
"""

from __future__ import annotations

import re


def words(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``, as a set."""
    return frozenset(text.split())

# Words that state a direction by themselves.
UP = words("""
higher highest increase increased increases increasing elevated elevation greater more raised
rise rises rose risen rising excess larger doubled tripled quadrupled heightened augmented
augmentation longer prolonged prolongation lengthened gain gained gains upregulated longest
enhanced enhancement enhances
""")
DOWN = words("""
lower lowest lowered decrease decreased decreases decreasing reduced reduce reduces reducing
reduction reductions fewer less least declined decline declines declining drop dropped drops
fell fall falls falling diminished smaller shorter shortened lessened attenuated halved
downregulated cut cuts shortest fewest smallest suppressed suppression lesser inhibited
""")
# Words that compare without saying which side is higher ("better" depends on the outcome).
VALENCE = words("""
better worse improved improvement improvements improves improve improving superior inferior
faster slower benefit benefits beneficial benefited worsened worsening deteriorated
deterioration favourable favorable unfavourable unfavorable impaired impairment
quicker delayed accelerated stronger weaker poorer poor greater-than-expected outperformed
outperform outperforms advantage advantages favour favor favouring favoring favoured favored
favours favors
""")
# A change within one group ("from baseline", "before and after", "from 16 to 25") says
# nothing of the other group: in a two-group study it is not a comparison.
WITHIN_GROUP = re.compile(
    r"\bfrom\s+(?:the\s+)?baseline\b|\b(?:compared\s+(?:with|to)|than|versus|vs\.?)\s+"
    r"(?:the\s+)?(?:baseline|pre-?treatment|pre-?intervention|before)\b|\bbefore\s+and\s+"
    r"after\b|\bpre-?\s*(?:to|and|vs\.?)\s*post|\bover\s+time\b|\bwithin[-\s]group|"
    r"\bfrom\s+[-\u2212]?\d[\d.,·]*\s*(?:±\s*[\d.]+\s*)?(?:[%\w/]+\s*)?(?:\([^)]*\)\s*)?to\s+"
    r"[-\u2212]?\d|\bfrom\s+t\d\s+to\s+t\d\b", re.IGNORECASE)
# Valence words that say the outcome went the good way, and the bad way.
GOOD = words("better improved improvement improvements improves improve improving superior "
             "benefit benefits beneficial benefited favourable favorable lived survived live "
             "survive outperformed outperform outperforms advantage advantages favour favor "
             "favouring favoring favoured favored favours favors")
BAD = words("worse worsened worsening deteriorated deterioration poorer poor inferior "
            "unfavourable unfavorable impaired impairment")
# What "better" means for an outcome: less of a harm, more of a good. A name with words of
# both kinds, or one that is itself a change ("improvement in X"), has no known polarity.
HARMS = re.compile(
    r"\b(?:pain|symptoms?|severity|errors?|complications?|adverse|mortality|deaths?|nausea|"
    r"vomiting|anxiety|depression|depressive|fatigue|itch\w*|pruritus|dyspn\w*|disability|"
    r"stress|burden|infections?|recurrences?|relapses?|failures?|toxicit\w*|bleeding|"
    r"blood\s+loss|length\s+of\s+(?:hospital\s+)?stay|hospitali[sz]ations?|readmissions?|"
    r"exacerbations?|discomfort|inflammation|edema|oedema|swelling|redness|erythema|dryness|"
    r"insomnia|craving|dysfunction|handicap|difficult\w*|morbidity|disease\s+activity|"
    r"dependence|agitation|delirium|hypoglycaemia|hypoglycemia|leakage|incontinence|"
    r"arrhythmias?|hypotension|bradycardia|tachycardia|shivering|dizziness|headaches?|"
    r"sore\s+throat|cough\w*|injur\w*|damage|fractures?|violations?|lesions?|ulcers?|"
    r"spasms?|emesis|ponv|rescue|requirements?|consumption|sedation|neuropathy|"
    r"constipation|diarrh\w*|bloating|flatulence|itch\w*|irritation|dryness|wheez\w*|"
    r"exacerbation\w*|morbidit\w*|disabilit\w*|impairment|dysfunction|toxicity|tension|"
    r"anger|confusion|hostility|kinesiophobia|fear|worry|loneliness|negative\s+emotions?|"
    r"ghosting|dyskinesias?)\b",
    re.IGNORECASE)
GOODS = re.compile(
    r"\b(?:survival|response|success\w*|satisfaction|quality\s+of\s+life|qol|efficacy|"
    r"strength|healing|remission|recovery|adherence|compliance|knowledge|cure|clearance|"
    r"ease|comfort|performance|accuracy|mastery|self-efficacy|well-?being|mobility|"
    r"range\s+of\s+motion|independence|usability|relief|function(?:ing)?|abstinence|"
    r"health|well[-\s]?being|quality|acuity|appetite|abilit\w*|skills?|acceptance|attention|"
    r"memory|cognition|cognitive|learning|endurance|oxygenation|saturation|healing|"
    r"continence|fitness|self-?esteem|confidence|empowerment|coping|literacy|competence|"
    r"fev1|fvc|pefr?|lung\s+function|toleran\w*|tolerated|coordination|dexterity|vitality|"
    r"walk\w*\s+distance|sense\s+of\s+(?:agency|community|coherence)|pao2|spo2|vigou?r|"
    r"ejection\s+fraction|recognition|component\s+summar(?:y|ies))\b",
    re.IGNORECASE)
# "lived longer", "survived longer": better survival, less death
LIVED = words("lived survived live survive")
DEATH_NAME = re.compile(r"\b(?:death|deaths|mortality|died|dying)\b", re.IGNORECASE)
# Speed words say which way a time went: "faster" recovery is a shorter time to recovery.
FASTER = words("faster quicker sooner earlier accelerated")
SLOWER = words("slower later delayed")
TIME_NAME = re.compile(r"\b(?:time|times|duration|latency|onset|interval|delay|days|hours|"
                       r"minutes)\b", re.IGNORECASE)
CHANGE_IN_NAME = re.compile(r"\b(?:improvement|change|changes|reduction|increase|decrease|"
                            r"difference|progress|relief|time\s+to)\b", re.IGNORECASE)
# "greater", "larger" before a change noun only intensify it: "a greater fall in HbA1c".
INTENSIFIERS = words("greater larger bigger more steeper smaller less marked")
CHANGE_NOUNS = words("""
fall drop decline decrease decreases reduction reductions rise increase increases improvement
improvements change changes gain loss losses elevation benefit
""")
# A direction word that is part of a number's context, not a claim: "lower bound", "more than 5".
NOT_A_CUE = re.compile(r"^\s*(?:bound|limit|end\b|confidence|ci\b|quartile|tertile|-?likely\s+to"
                       r"\s+report|than\s+(?:or\s+equal\s+(?:to\s+)?)?[<>≤≥]?\s*\d|than\s+(?:the\s+)?"
                       r"(?:normal|upper|lower|reference|uln|cut-?off|threshold)(?!\s+(?:saline|group|arm|"
                       r"subjects|controls|diet))|-?(?:group|arm|"
                       r"cohort)s?\b)", re.IGNORECASE)
# "there was no evidence that A raised the risk of X": the that-clause is negated
NO_EVIDENCE_THAT = re.compile(r"\bno\s+(?:\w+\s+){0,2}?evidence\s+that\b[^,;.()]{0,60}$",
                              re.IGNORECASE)
# "Relapse was defined as a score of more than 3": a definition of an outcome, no result
DEFINITION = re.compile(r"\b(?:defined|classified|categori[sz]ed)\s+as\b", re.IGNORECASE)
# "at least", "at increased risk", "at higher risk of X": a population or a bound, not a claim
NOT_A_CUE_BEFORE = re.compile(r"\b(?:at|the|a)\s*$|\bat\s+(?:\w+\s+)?$", re.IGNORECASE)

# "No difference" in words: the claim that the groups do not differ.
NULL_PHRASE = re.compile(
    r"\bno\s+(?:\w+ly\s+|statistical\s+)?(?:significant\s+|meaningful\s+|clear\s+|notable\s+"
    r"|material\s+|detectable\s+|important\s+|relevant\s+|apparent\s+|discernible\s+|real\s+)?"
    r"(?:between[-\s]groups?\s+|group\s+|overall\s+|further\s+|main\s+|treatment\s+|net\s+"
    r"|intervention\s+|major\s+|statistical\s+)?"
    r"(?:differences?|associations?|changes?|effects?|evidence|impact|influence|benefit|harm)\b"
    r"|\bno\s+(?:statistically\s+)?significantly\s+(?:different|\w+er)\b"
    r"|\bnot\s+(?:statistically\s+|clinically\s+)?(?:significant(?:ly)?|different|differ)\b"
    r"|\bnon-?\s?significant(?:ly)?\b|\binsignificant(?:ly)?\b"
    r"|\b(?:did|do|does|could|would|was|were)\s*n[o']t\s+(?:\w+\s+){0,2}?(?:differ|change|reach|"
    r"show|demonstrate|find|detect|affect|influence|alter|reveal)\w*"
    r"|\bfailed\s+to\s+(?:\w+\s+){0,2}?(?:reach|show|demonstrate|differ|achieve|affect)\w*"
    r"|\bsimilar(?:ly)?\b|\bcomparable\b|\bunchanged\b|\bunaltered\b|\bunaffected\b"
    r"|\bequivalent\b|\bindistinguishable\b|\bidentical\b|\bequally\b|\bas\s+effective\s+as\b"
    r"|\bnone\s+of\s+(?:the\s+)?(?:[\w-]+\s+){0,4}?(?:differed|were\s+(?:statistically\s+)?"
    r"significant|reached\s+(?:statistical\s+)?significance|changed)"
    r"|\bno\s+(?:[\w-]+\s+){0,3}?(?:outcomes?|endpoints?|measures?)\s+(?:differed|changed)\b"
    r"|\bneither\b[^.;]{0,60}?\bnor\b|\bnot\s+(?:significantly\s+)?associated\b|\bneutral\b"
    r"|\bnull\s+(?:effect|result|association|finding)s?\b|\bno\s+(?:between[-\s]group\s+)?"
    r"difference\s+(?:was|were)\b|\bns\b(?=\s*[),;])|\bn\.s\.",
    re.IGNORECASE,
)
# A direction word right after these is hedged: stated, but not asserted as an effect.
HEDGE_BEFORE = re.compile(
    r"(?:\bnon-?\s?significant(?:ly)?|\b(?:trend|tendency|trends)\s+(?:toward|towards|for|to)"
    r"(?:\s+(?:a|an|the))?|\btend(?:ed|s)?\s+to(?:\s+be)?|\btrended\s+(?:toward|towards)?"
    r"|\bnumerically|\bmarginally(?=\s+(?:statistically\s+)?significant)"
    r"|\bnominally|\bborderline"
    r"|\bmay|\bmight|\bcould|\bpossibly|\bappeared\s+to(?:\s+be)?)\s+(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)
# A hedge after the cue: "lower, although not significantly", "which trended towards
# significance", "did not reach significance".
HEDGE_AFTER = re.compile(
    r"^[^.;]{0,80}?\b(?:not\s+(?:statistically\s+)?significant(?:ly)?|non-?\s?significant|"
    r"(?:did|does|was|were)\s*n[o']t\s+reach\w*|failed\s+to\s+reach|trend(?:ed)?\s+"
    r"(?:toward|towards)|not\s+reach(?:ing)?\s+(?:statistical\s+)?significance)",
    re.IGNORECASE,
)
# Significance claimed in words ("significantly lower", "a significant increase").
SIGNIFICANT = re.compile(r"(?<!non-)(?<!non)(?<!in)\b(?:statistically\s+|highly\s+)?"
                         r"significant(?:ly)?\b", re.IGNORECASE)
NEGATED_SIGNIFICANT = re.compile(r"\b(?:not|no|non-?|never|nor)\s*(?:\w+\s+){0,2}?"
                                 r"(?:statistically\s+)?significant", re.IGNORECASE)

# A negation right before a cue turns it into "no difference": "did not increase".
NEGATORS = words("no not non without never neither nor none n't cannot")
NEGATION_BRIDGE = words("""
was were is are be been being significantly significant statistically associated with a an any
there further experience experienced show demonstrate demonstrated produce exhibit exhibited
reveal revealed achieve achieved yield yielded cause see seen find observe detect report
reported have
the risk of in found observed show shown showed detected evidence meaningfully clinically
materially substantially to did does do has have had appreciably further lead led result
resulted cause caused produce produced linked tied related connected translate translated
into
""")
# Words between a name and the cue that follows it: "X (HR 2.72) was significantly higher".
FILLER = words("""
was were is are be been being remained remain appeared appears appear seemed seem also slightly
substantially markedly modestly significantly statistically risk risks rate rates incidence
odds hazard likelihood probability levels level values value scores score concentration
concentrations both all still further found noted observed seen became become even much
considerably somewhat numerically nominally consistently respectively overall mean median
""")
# Words a cue's argument may start with before the outcome's name: "lower risk of X".
ARGUMENT_LEAD = words("""
in of the a an risk risks rate rates incidence odds hazard hazards levels level values value
scores score number numbers proportion proportions percentage share likelihood frequency
prevalence occurrence amount amounts concentration concentrations mean median total overall
for with regarding on chance chances serum plasma its their his her any
""")
# Nouns that only say "a group": "in the X group", "X-treated patients".
GROUP_NOUNS = words("""
group groups arm arms cohort cohorts patients patient participants participant subjects subject
users user initiators recipients individuals people persons women men children infants
adults cases
""")
# Comparison markers: the group after them is the reference side.
COMPARISON = words("than versus vs vs. v compared comparison comparisons relative against over "
                   "opposed contrast contrasted outperformed outperform outperforms")
# Role words: the intervention or control group named by its role.
INTERVENTION_ROLES = words("""
intervention treatment treated experimental active exposed study index trial supplemented
""")
CONTROL_ROLES = words("""
control controls placebo sham comparator comparison reference unexposed untreated vehicle
nonusers non-users
""")
# Words after "more"/"less" that keep it a claim of frequency: "more likely", "more often".
FREQUENCY_AFTER_COMPARATIVE = words("likely often frequently frequent common commonly prevalent "
                                    "patients participants subjects women men children cases "
                                    "events")
# "more effective", "less likely to improve": the adjective, not "more", carries the claim.
VALENCE_AFTER_COMPARATIVE = words("""
effective efficacious beneficial useful successful favorable favourable potent satisfied
tolerable tolerated comfortable helpful harmful safe steep
""")
# Words that end the reach of a no-difference phrase: "no difference, except for X".
EXCEPTIONS = words("except exception apart besides excluding but other")
# Subject pronouns that can stand for the group just named.
PRONOUNS = words("it they this these its their them")
# "both groups", "either arm", "all groups": no side is named.
BOTH = re.compile(r"\b(?:both|either|all|each|neither|the\s+two|the\s+three|two|three)\s+"
                  r"(?:\w+\s+){0,2}?(?:groups?|arms?|cohorts?|treatments?|regimens?|conditions?)"
                  r"\b|\bbetween\s+(?:the\s+)?(?:groups?|arms?|treatments?)\b", re.IGNORECASE)
BASELINE = re.compile(
    r"(?<!than\s)(?<!from\s)(?<!with\s)(?<!since\s)(?<!to\s)(?<!vs\s)(?<!versus\s)"
    r"\bat\s+baseline\b|\bbaseline\s+(?:characteristics?|values?|differences?|imbalances?)"
    r"|\bbefore\s+(?:matching|weighting|treatment\s+start|randomi[sz]ation)|^\W*baseline\b"
    r"|\bat\s+(?:study\s+)?entry\b|\bpre-?existing\b|\bat\s+enrol+ment\b",
    re.IGNORECASE,
)
OUTCOME_TALK = re.compile(r"\bsignifican|\bassociat|\brisk|\bodds\b|\bhazard|\bp\s*[=<>]",
                          re.IGNORECASE)
