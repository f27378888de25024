/**
 * Checks of the names a config gives: emails, and titles that equal another one to the eye only.
 */

/** A config `user`: emails compare case-insensitively, user ids as given. */
export function lowerIfEmailAddress(user: string): string {
  return user.includes('@') ? user.toLowerCase() : user;
}

/** A plain email address: one @, no whitespace, a dot in the domain. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why a config `user` (email or user id) is malformed, or undefined when it is fine. */
export function userProblem(user: string): string | undefined {
  if (user !== user.trim()) {
    const lead = user.length - user.trimStart().length;
    const trail = user.length - user.trimEnd().length;
    const where = lead > 0 && trail > 0 ? 'before and after it' : lead > 0 ? `before it (${lead} character${lead === 1 ? '' : 's'})` : `after it (${trail} character${trail === 1 ? '' : 's'})`;
    return `${JSON.stringify(user)} has whitespace ${where}; remove it`;
  }
  if (user.includes('@') && !EMAIL.test(user)) return `${JSON.stringify(user)} is not an email address (name@domain.tld)`;
  if (!user.includes('@') && /\s/.test(user)) return `${JSON.stringify(user)} is neither an email address nor a user id (it holds whitespace)`;
  return undefined;
}

/** Characters no one sees: zero-width spaces and joiners, the byte-order mark, soft hyphens, bidi marks, variation selectors. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;
const ONE_INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;

/**
 * Cyrillic and Greek letters drawn like Latin ones (the common look-alikes, not Unicode's whole
 * confusables table): each maps to the Latin letter it imitates.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  а: 'a', в: 'B', е: 'e', ё: 'e', к: 'k', м: 'M', н: 'H', о: 'o', р: 'p', с: 'c', т: 'T', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', һ: 'h', ԁ: 'd', ԛ: 'q', ԝ: 'w',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S',
  α: 'a', ο: 'o', ρ: 'p', ν: 'v', ι: 'i', κ: 'k', τ: 't', υ: 'u', χ: 'x',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};

/**
 * What a title looks like: NFKC-normalised (full-width and compatibility forms folded), invisible
 * characters removed, Cyrillic and Greek look-alikes mapped to Latin, runs of whitespace made one
 * space, trimmed. Two titles with the same skeleton read the same to a person.
 */
export function titleSkeleton(title: string): string {
  const folded = title.normalize('NFKC').replace(INVISIBLE, '');
  let out = '';
  for (const ch of folded) out += LOOK_ALIKES[ch] ?? ch;
  return out.replace(/\s+/gu, ' ').trim();
}

/** The titles among `others` that look like `title` without being it, or an empty list. */
export function lookAlikes(title: string, others: Iterable<string>): string[] {
  const skeleton = titleSkeleton(title);
  const out: string[] = [];
  for (const o of others) if (o !== title && titleSkeleton(o) === skeleton) out.push(o);
  return out;
}

/**
 * A note for the create of `title` when the organization has a title that differs from it only to
 * the eye (invisible characters, look-alike letters, compatibility forms, whitespace), naming both.
 */
export function lookAlikeNote(noun: string, title: string, existing: Iterable<string>): string[] {
  const alike = lookAlikes(title, existing);
  if (alike.length === 0) return [];
  return [`warning: ${noun} ${JSON.stringify(title)} is new, but looks the same as the existing ${noun} ${alike.map((t) => JSON.stringify(t)).join(', ')}: they differ only by invisible or look-alike characters or whitespace; check the title is not a copy with a stray character`];
}

/** lookAlikeNote as step fields: `{ notes }` when there is a look-alike, nothing otherwise. */
export function lookAlikeNotes(noun: string, title: string, existing: Iterable<string>): { notes?: string[] } {
  const notes = lookAlikeNote(noun, title, existing);
  return notes.length > 0 ? { notes } : {};
}

/**
 * `text` with what the eye cannot tell apart spelled out: invisible characters, look-alike letters
 * and whitespace other than a space as `\u{…}`, so that two look-alikes read differently in a message.
 */
export function spelledOut(text: string): string {
  let out = '';
  for (const ch of text) {
    const plain = ch === ' ' || (!/\s/u.test(ch) && !ONE_INVISIBLE.test(ch) && !(ch in LOOK_ALIKES) && ch.normalize('NFKC') === ch);
    out += plain ? ch : `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
  }
  return out;
}
