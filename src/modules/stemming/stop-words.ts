/**
 * Function words per language (ISO 639-1 and 639-2 codes): prepositions, conjunctions, pronouns,
 * determiners and quantifiers, auxiliary verbs and a few adverbs. In decoration, such a word on its own
 * matches no term: a termbase of user-interface strings has terms like Icelandic "á" (On), "fyrir"
 * (Before) or "af" (Off), and the preposition "á" of running text is not that term. A term of several
 * words matches whatever words it has ("Fara á", "hnappur á verkfærarein"). Directional adverbs
 * (upp, niður, inn, út, aftur, áfram) are content words of such termbases and are not listed.
 */
const ICELANDIC = `
á að af án auk ásamt eftir fyrir frá gagnvart gegn gegnum handa hjá í innan kringum með meðal milli
móti neðan ofan samkvæmt til um umfram undan undir úr utan vegna við yfir
og eða en sem ef þegar því þótt þó heldur hvort né enda hvorki annaðhvort nema uns meðan svo
ég mig mér mín þú þig þér þín hann hans honum hún hana henni hennar það þess okkur okkar þið ykkur
ykkar þeir þá þeim þeirra þær þau sig sér sín minn mitt mína mínum mínu mínir mínar þinn þitt þína
þínum þínu sinn sitt sína sínum sínu sínir sínar
þessi þetta þennan þessa þessum þessu þessir þessar þessara þeirri þeirrar sá sú hinn hin hið hinu
hinum hina hins hinni hinnar hinir hinar hinna
allur öll allt allan alla allir allar öllum öllu allri allrar allra alls enginn engin ekkert engan
enga engum engu engir engar engra einskis neinn neitt nokkur nokkuð nokkra nokkrum einhver eitthvað
hver hvað hvaða hvern hverju hverjum hvers annar önnur annað aðra aðrir aðrar öðrum öðru báðir bæði
meira mest minna minnst fleiri flest margir mörg margar mörgum sumir sum sumar
er ert eru erum eruð var varst voru vorum sé séu væri væru vera verið verður verða varð urðu hef
hefur hafa hafði höfðu haft hafi get getur geta gat gátu getað skal skulu mun munu myndi mundi má
mega vil vill vilja
ekki ei eigi já nei líka einnig mjög hér þar nú bara enn aldrei alltaf oft stundum of hvar hvenær
hvernig hví áður strax kannski jafnvel ennþá`;

const sets = new Map<string, ReadonlySet<string>>();
const icelandic = new Set(ICELANDIC.split(/\s+/u).filter(Boolean));
for (const code of ['is', 'isl', 'ice']) sets.set(code, icelandic);

/** Whether a word (any case) is a function word of the language; false where no list exists. */
export function isStopWord(language: string, word: string): boolean {
  return sets.get(language.toLowerCase())?.has(word.toLowerCase()) ?? false;
}
