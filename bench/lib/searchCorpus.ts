/**
 * The words of bench:search's stored messages: per room language, the words people write most
 * (stop words included, as chat is written) followed by a long tail of rarer words (names, places,
 * slang, typos), drawn with Zipf's law (a word of rank r about 1/r as often as the first), which is
 * how word frequencies fall in any large body of text.
 */
import { rng } from './stats.ts';

export const LANGUAGES = ['en', 'es', 'fr', 'de', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];

const COMMON: Record<Language, string> = {
  en: `i you the to a and it is that lol what in me my so do not have are for this just no yes of on like be was but
    good with know how can we all get now your about one time haha think really go see want today people going right love
    tonight game music thanks well work night day new movie weekend coffee friend play school home food video song team
    match party city book phone morning weather dinner trip photo`,
  es: `que de no a la el y es en lo un por me qué si te los se con para mi pero bien jaja sí está todo hola gracias bueno
    ahora hoy mañana noche casa amigo música fútbol partido película comida trabajo fiesta ciudad libro foto viaje café
    juego equipo`,
  fr: `je de la le et pas à un tu que est en les ça il on pour mais oui non bien merci salut mdr avec ce vous nous tout
    faire aujourd demain soir maison ami musique foot match film manger travail fête ville livre photo voyage café jeu
    équipe week`,
  de: `ich du die der und das ist nicht ja nein es zu ein mit auf hallo danke gut heute morgen abend haus freund musik
    fußball spiel film essen arbeit party stadt buch foto reise kaffee mannschaft wochenende schule wetter urlaub`,
  pt: `que não de o a e é eu você um para com me se tudo bem sim obrigado oi kkkk hoje amanhã noite casa amigo música
    futebol jogo filme comida trabalho festa cidade livro foto viagem café time escola praia`,
};

const SYLLABLES = 'ka lo mi ren tas vu zor pel dri quo bax nim sef tul gor yan hep wic mup dov las fen kir bou'.split(' ');

/** A made-up word for a tail rank: distinct for each rank, pronounceable, never a real stop word. */
export function tailWord(rank: number): string {
  let n = rank;
  let w = '';
  do {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return `${w}x`;
}

export const VOCABULARY_SIZE = 20_000;

/** Each language's words by rank (index 0 is the most frequent). */
export const vocabulary: Record<Language, string[]> = Object.fromEntries(
  LANGUAGES.map((l) => {
    const common = COMMON[l].split(/\s+/).filter(Boolean);
    const tail = Array.from({ length: VOCABULARY_SIZE - common.length }, (_, i) => tailWord(i + common.length));
    return [l, [...common, ...tail]];
  }),
) as Record<Language, string[]>;

/** A rank drawn with Zipf's law (exponent 1) over `size` words: log-uniform, so P(r) ∝ 1/r. */
export const zipfRank = (u: number, size: number) => Math.min(size - 1, Math.floor(Math.exp(u * Math.log(size + 1))) - 1);

/** A message's text: 1 to 25 words, short ones the most common, as chat is. */
export function messageText(random: () => number, language: Language): string {
  const words = vocabulary[language];
  const n = 1 + Math.floor(Math.pow(random(), 1.6) * 25);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(words[zipfRank(random(), words.length)]!);
  return out.join(' ');
}

export { rng };
