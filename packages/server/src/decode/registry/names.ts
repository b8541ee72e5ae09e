// Issuer names as sources write them differ in case, punctuation, accents and legal form ("Telefónica Móviles
// España, S.A.U." and "Telefonica Moviles Espana"). The key below is what two spellings of one name share.

const LEGAL_FORMS = new Set(
  (
    "ab ag as asa bv co company corp corporation cv gmbh inc incorporated kg limited llc lp llp ltd ltda nv oy oyj plc " +
    "pjsc pty pvt sa sae sal sarl sas sau spa srl the jsc ojsc cjsc zao oao ooo ad sh sp zoo kk bhd sdn tbk and"
  ).split(" "),
);

/** The comparable form of an issuer name: lower case, no accents or punctuation, no legal form words (nor
 * "and", which "&" also stands for). */
export function issuerKey(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[&.]/g, "")
    .replace(/\([^)]*\)/g, " ")
    .replace(/[^a-z0-9]+/g, " ")
    .split(" ")
    .filter((word) => word !== "" && !LEGAL_FORMS.has(word))
    .join(" ");
}

/** A name and, for "Singapore Telecommunications Ltd (SingTel)", the name in brackets. */
function spellings(name: string): string[] {
  const bracketed = [...name.matchAll(/\(([^)]+)\)/g)].map((m) => m[1]!);
  return [name, ...bracketed].map(issuerKey).filter((key) => key !== "");
}

/**
 * True when two names plausibly name one issuer: a key of one (the name, or a name in its brackets) equals
 * a key of the other, or is its first whole words ("AT&T Mobility" and "AT&T", "T-Mobile US" and "T-Mobile",
 * "Bahrain Telecommunications (BATELCO)" and "Batelco"; not "China Mobile" and "China Telecom").
 */
export function sameIssuer(a: string, b: string): boolean {
  const keysB = spellings(b);
  return spellings(a).some((ka) => keysB.some((kb) => sameKey(ka, kb)));
}

function sameKey(ka: string, kb: string): boolean {
  const [shorter, longer] = ka.length <= kb.length ? [ka, kb] : [kb, ka];
  return longer === shorter || longer.startsWith(`${shorter} `);
}
