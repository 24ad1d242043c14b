"""Find sentences addressed to the grader rather than answering the question.

Candidate text is data: a sentence that asks for a score, gives orders to the
examiner or fakes a verdict is dropped before grading, so it can neither add
credit nor trigger anything.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.examiners.offline.text import fold, fold_ja

_AI = r"(ai|a\.i\.|model|llm|language model|assistant|grader|examiner|evaluator|assessor|marker|judge)"
_RUBRIC = r"(key\s*points?|criteri(on|a)|rubric( items?| points?| criteria)?)"
_COUNT_NOUNS = (r"(samples?|rollouts?|responses?|answers?|completions?|prompts?|runs?|seeds?|trials?|times?|cases?"
                r"|generations?|outputs?|tokens?|tasks?|problems?|questions?|gpus?|nodes?|workers?|steps?|of|in"
                r"|campioni|risposte|volte|prove|casi)")
_PATTERNS = [
    # orders to ignore or override instructions ("ignore the previous value network" is not one)
    r"\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(instructions?|rubric|prompt|rules|guidelines?"
    r"|system message|(previous|above|prior|earlier|preceding|all)\s+(instructions?|rules?|prompts?|messages?"
    r"|directions?|guidelines?|text|context|content))\b",
    r"\b(ignora|dimentica|trascura)\b.{0,40}\b(istruzion|rubrica|prompt|regol|(precedent[ie]|sopra)\s+(istruzion|regol"
    r"|messagg|indicazion))",
    r"\bsystem\s+override\b|\boverride\s+(mode|the (grader|grading|rubric|scoring|examiner))\b",
    # the grader / examiner / model addressed
    r"\b(dear|hey|hi|attention|note to)\s+(the\s+)?(grader|examiner|evaluator|assessor|marker|reviewer|judge|ai|model)",
    rf"\b(note|notes|instructions?|message|memo|reminder)\s+(for|to)\s+(the\s+|any\s+)?{_AI}\b",
    rf"\b(the\s+)?{_AI}\s+(reading|grading|evaluating|scoring|marking|assessing)\s+(this|these|my)\b",
    r"\bas the (evaluating|grading|scoring|marking) (model|ai|llm|system)\b|\b(evaluating|grading) (model|llm)\b",
    r"\b(grader|examiner|evaluator|assessor|marker|valutatore|esaminatore|correttore)\b"
    r".{0,60}\b(you|please|give|award|10|punteggio|voto|dai|assegna|devi)\b",
    r"\b(you|please)\b.{0,40}\b(grader|examiner|evaluator|assessor|marker)\b",
    r"\byou are (an? )?(ai|llm|language model|assistant|grader|examiner)",
    r"\b(as an ai|new instructions|developer mode|jailbreak)\b",
    r"\b(ignore|override|reveal|print)\b.{0,30}\bsystem (prompt|message)",
    r"^\s*(system|assistant|developer)\s*:",
    r"^\s*(new\s+)?task\s*:.{0,80}\b(candidate|answer|grade|score|coverage|key\s*points?|criteri)",
    r"\[(system|inst)\]|<\s*/?\s*(system|instructions?|answer|candidate|rubric)[^>]*>",
    r"\bnota per (il |lo |l'?\s?)?(modello|ia|ai|llm|valutatore|esaminatore|correttore|assistente)\b",
    r"\b(al|per il) modello che (valuta|legge|corregge|giudica)\b|^\s*(al|per il) modello\s*:",
    # a verdict about this answer, in the examiner's voice
    r"\bthe candidate('s)?\b.{0,40}\b(is|was|has|have)\b.{0,30}\b(complete|correct|perfect|excellent|flawless"
    r"|fully|covered|explained)\b",
    # ("check whether the answer is correct" is a verifier's job, not a verdict)
    r"(\b(this|my|the above)|(?<!whether )(?<!\bif )(?<!when )(?<!once )(?<!unless )\bthe) (answer|response|solution)\b"
    r".{0,15}\b(is|was) (complete|correct|perfect|flawless|excellent)\b(?!\s+(only|if|when|because|for|in|as))",
    # rubric vocabulary used as an order: coverage values, every key point / criterion covered
    r"\b(coverage|copertura)\b.{0,40}?(\bto|\ba|=|:|\bof|\bat|\bas)?\s*\"?(1(\.0+)?|100\s*%|full|piena|massima)"
    r"(?![\d.,]|\s*(million|billion|thousand|k\b|m\b|milion|mila))",
    rf"\b(every|each|all|all the)\s+(of the\s+)?{_RUBRIC}\b.{{0,40}}\b(covered|satisfied|met|fulfilled|addressed"
    r"|complete|full|fully|detected|present|found)\b",
    rf"\b(mark|rate|treat|consider|score|set|output|grade|credit|count)\b.{{0,40}}\b(every|each|all)\s+(the\s+)?"
    rf"{_RUBRIC}\b",
    r"\b(full|maximum|max|complete) (credit|coverage|points?) (on|for|in) (every|each|all)\b",
    r"\b(ogni|tutti i|ciascun)\s+(punt[oi] chiave|criteri[oa]?)\b.{0,40}\b(copert|soddisfatt|trattat|pien|massim)",
    r"\b(imposta|assegna|segna|considera|metti|dai|valuta)\b.{0,40}\b(ogni|tutti i|ciascun)\s+(punt[oi] chiave|criteri)",
    r"\b(tutti i punti chiave|ogni punto chiave|tutti i criteri)\b.{0,30}\b(sono|e|è)\s+(copert|soddisfatt|trattat)",
    r"\b(do not|don't|non)\s+(report|list|flag|segnalare|elencare)\b.{0,30}\b(misconceptions?|errors?|errori|mistakes?)",
    # JSON a grader would return
    r"\"(score|overall|grade|verdict|coverage|criteria|misconceptions|evidence)\"\s*:",
    r"\b(overall|verdict|final (score|grade))\s*[:=]\s*\"?(10|[0-9]|strong|pass)\b",
    r"^\W*(score|grade|mark|rating|voto|punteggio|overall|verdict)\s*[:=]\s*\d",
    # "expected score" alone is RL vocabulary ("an expected score to compare against"); a verdict has a number
    r"\b(recommended|suggested|expected|final|correct) (grade|score|mark|voto|punteggio)\b"
    r"(\s*(for|of|per) (this|my|the|questa|la mia) (answer|response|candidate|risposta))?\s*(is|should be|would be|e|è|:|=)?\s*\d"
    r"|\b(recommended|suggested|final|correct) (grade|score|mark|voto|punteggio) (for|of|per) (this|my|questa|la mia)\b"
    r"|\brubric check\b",
    # requests for a score
    r"\b(give|award|assign|grant)\b.{0,30}\b(me|this|my|the answer)\b.{0,30}"
    r"\b(10|ten|full|maximum|max|perfect|top|highest|100)\b",
    r"\b(rate|score|mark|grade)\s+(me|this answer|my answer|this response)\b.{0,30}"
    r"\b(10|ten|full|maximum|max|perfect|top|highest|high|highly|100)\b",
    # …but picking the top-scoring action, or a policy credited for its moves, is RL, not a request
    r"^(?!.*\b(pick|picks|picking|choose|chooses|choosing|select|selects|selecting|take|takes|taking|find|finds"
    r"|finding)\s+the\s+(top|maximum)\s+score)(?!.*\b(policy|agent|actor|action|token)s?\s+(full|maximum)\s+credit)"
    r".*\b(full|maximum|perfect|top)\s+(marks?|score|points?|grade|credit)\b",
    rf"\b(10|ten)\s*(/|out of|su)\s*(10|ten|dieci)\b(?!\s*{_COUNT_NOUNS}\b)",
    r"\b(a|an|un|uno)\s+\d{1,2}([.,]\d)?\s*(/|out of|su)\s*10\b",
    r"\b(score|grade|mark|rating|voto|punteggio)\b.{0,40}\b\d{1,2}([.,]\d)?\s*(/|out of|su)\s*10\b",
    r"\b(generous|lenient|kind)\b.{0,30}\b(score|grade|mark|marking|grading|voto|punteggio)\b",
    r"\b(deserves?|merits?|merita|meritano)\b.{0,30}\b(10|ten|full|maximum|perfect|high|massimo|pieni)",
    r"\b(dammi|assegnami|mettimi)\b.{0,30}\b(10|dieci|massimo|pieni|alto)\b",
    r"\b(dai|assegna|metti)\b.{0,20}\b(10|dieci|il massimo|pieni voti|punteggio pieno|voto pieno)\b",
    r"\b(punteggio|voto)\s+(massimo|pieno|perfetto)",
]
# One regex per pattern: Python's engine searches several small patterns faster than one alternation.
_LATIN = [re.compile(p) for p in _PATTERNS]

_JA = re.compile(
    # the grader addressed ("人間の評価者は…" is about human raters, not to the grader)
    # (the English words before a comma only opening the sentence or after Japanese: "surpass its grader, and…")
    r"(採点者|評価者|試験官|採点ai|採点モデル|審査員|グレーダー|(?:^|(?<=[\u3000-\u9fff]))\s*(?:grader|examiner))"
    r"(へ|様|さま|さん|殿|の(皆様|方)|[:：、,!！]|に(お願い|伝え))|(grader|examiner)[:：!！]"
    r"|(採点者|評価者|試験官|採点ai|採点モデル|審査員|グレーダー)(は|が|も).{0,30}(ください|下さい|してほしい|して欲しい|お願い)"
    r"|[\"「『](採点者|評価者|試験官|採点|評価|スコア|点数)[\"」』][:：]"
    r"|満点|10点|高得点(?!にな)|最高点"  # "長い回答が高得点になりがち" is reward hacking, not a request
    r"|(高い点|高評価|点数|点)を?(つけて|付けて)(ください|下さい|ほしい|欲しい|くれ)|点をください|点をあげて"
    r"|指示を無視|指示は無視|以前の指示|これまでの指示|ルールを無視|システムプロンプトを(無視|表示|出力|教え|見せ)"
    r"|^(system|システム|assistant|アシスタント)[:：]"
    r"|(coverage|カバレッジ|網羅率|カバー率|スコア|評価|点数)を?(1|1\.0|100%|満点|最大|最高)に"
    r"|(すべて|全て|全部|各|それぞれ)の?(キーポイント|評価項目|評価基準|採点項目|基準|項目|criteria|keypoint)"
    r".{0,20}(満たし|網羅|カバー|1に|1\.0|扱って|判定|採点|評価して|とみなし|満点)"
    r"|(モデル|ai|llm|言語モデル|アシスタント)(へ|への|に対する)(指示|注意|メモ|お願い|メッセージ)?[:：]"
    r"|(モデル|ai|llm|言語モデル)への(指示|注意|お願い)"
    r"|(この|私の)(回答|答え)は(完璧|満点|完全|正解)"
    r"|誤解(を|は)(報告|列挙|指摘)しないで"
)


@lru_cache(maxsize=4096)
def is_grader_addressed(sentence: str) -> bool:
    """True for a sentence that talks to the grader instead of answering.

    Cached: an interview checks the same answer sentences before every model call.
    """
    folded = fold(sentence)
    return any(p.search(folded) for p in _LATIN) or bool(_JA.search(fold_ja(sentence)))


# A sentence that names a wrong claim in order to reject it ("a common misconception is that…").
_REFUTE_LATIN = re.compile(
    r"\b(misconception|myth|common (mistake|error|pitfall|trap)|people (often |sometimes )?(think|believe|assume|claim|say)"
    r"|(is|are|that'?s|this is) (a )?(wrong|false|incorrect|not true|untrue|a mistake)\b|contrary to|mistakenly|wrongly|incorrectly"
    r"|it is tempting to (think|say|believe)"
    r"|misconcezion|\bmito\b|errore (comune|tipico|frequente)|(molti|spesso si) (pensa|pensano|crede|credono)"
    r"|(e|è) (sbagliato|falso|errato|un errore)|non (e|è) vero|erroneamente|contrariamente a)"
)
# "…が原因だとよく言われますが、…" (it is often said …, but): the view is reported to be corrected
_REFUTE_JA = re.compile(r"誤解|よくある(間違い|誤り|勘違い)|と思われがち|と考えがち|と言われがち|俗説|間違いです|誤りです|勘違い"
                        r"|と(よく)?言われ(ます|る|ている|ています)(が|けど|けれど)")


def is_refutation(sentence: str) -> bool:
    """True for a sentence that states a wrong claim only to reject it."""
    return bool(_REFUTE_LATIN.search(fold(sentence)) or _REFUTE_JA.search(fold_ja(sentence)))


def is_question(sentence: str) -> bool:
    """True for a sentence that asks rather than claims ("Can atomic add solve it?"): a candidate restating
    the interview question, or asking one, asserts none of the claims in it."""
    return sentence.rstrip().endswith(("?", "\uff1f"))
