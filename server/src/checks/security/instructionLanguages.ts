import { CREDENTIAL_STORE } from '../../platforms/credentialStores';

// What hostile_instruction recognises in each language a skill may be written in, by intent: what the prose asks the
// agent to do, in the words and word order of that language. English is in hostileInstructions.ts; to add a language,
// add an entry here with a pattern for each intent it can say (an intent left out is simply not read in it), its
// verbs for sending, its words for discussing an attack, and its negations, and a test with a benign twin.

/** What an instruction against the user asks of the agent. */
export type Intent = 'override' | 'conceal' | 'hideStep' | 'impersonate' | 'unconfirmed' | 'credentials' | 'send';

interface Language {
  /** How a text is known to be (partly) written in it: a letter of its script, or its commonest words. */
  written: { script: RegExp } | { words: string };
  intents: Partial<Record<Intent, string>>;
  /** Its verbs for sending something somewhere (credentialsSent.ts finds what is sent and where by their names). */
  transfer: string;
  /** Words of prose that discusses attacks rather than making one ("prompt injection", "for example"). */
  discussing: string;
  /** A negation just before a cue: it forbids what the cue says. */
  negation: string;
}

/** Files a thief takes, named the same in every language: the stores of logins, and a project's `.env`. */
export const CREDENTIAL_PATHS = String.raw`(?:${CREDENTIAL_STORE}|\.env\b)`;
/** Where data is sent: an address, perhaps quoted or in a code span. */
const ADDRESS = String.raw`[\x60'"<]?https?:\/\/\S+`;
/** Up to three words between, none of them a negation the language uses inside a phrase. */
const gap = (negations: string) => String.raw`(?:(?!(?:${negations})\b)[\p{L}\p{N}'\u2019-]+\s+){0,3}?`;

const LANGUAGES: Record<string, Language> = {
  de: {
    written: {
      words:
        'und|nicht|nichts|oder|wenn|dann|der|die|das|ist|sind|mit|auf|f\u00fcr|ein|eine|zu|den|dem|du|Sie|alle|alles|bitte|davon|diese|diesen|dieser|dieses|ohne|nach|auch|noch|sich|wird|werden|kann|muss|soll|Benutzer|Nutzer',
    },
    intents: {
      override: String.raw`(?<!\p{L})(?:ignorier|vergiss|vergesst|missacht|\u00fcbergeh)\p{L}*\s+${gap('nie|niemals|nicht|keine?')}(?:vorherig|bisherig|obig|fr\u00fcher|ander|urspr\u00fcnglich|System)\p{L}*\s+(?:Anweisungen|Regeln|Instruktionen|Vorgaben)`,
      conceal: String.raw`\b(?:sag|erz\u00e4hl|verrat|teil)\p{L}*\s+${gap('nie|niemals')}(?:Benutzer|Nutzer|Anwender)\p{L}*\s+(?:\p{L}+\s+){0,2}?nichts\b|\b(?:erw\u00e4hn|zeig|nenn|meld)\p{L}*\s+(?:[\p{L}\p{N}]+\s+){0,5}?(?:Benutzer|Nutzer|Anwender)\p{L}*\s+(?:\p{L}+\s+){0,2}?nicht\b|\bohne\s+(?:\p{L}+\s+){0,2}?(?:Benutzer|Nutzer|Anwender)\p{L}*\s+(?:\p{L}+\s+){0,2}?(?:zu\s+)?(?:informieren|benachrichtigen|sagen)\b|\b(?:heimlich|unbemerkt)\b`,
      unconfirmed: String.raw`\bohne\s+(?:nach\s+)?(?:Best\u00e4tigung|R\u00fcckfrage|Erlaubnis)\b|\bohne\s+(?:zu\s+)?fragen\b`,
      credentials: String.raw`\b(?:lies|lese|lesen|kopier|sammle|sammeln|\u00f6ffne)\p{L}*\b[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`\b(?:send|schick|\u00fcbertrag|lad)\p{L}*\b[^.\n]{0,80}\b(?:an|nach|auf)\s+${ADDRESS}`,
      hideStep: String.raw`\b(?:erw\u00e4hn|nenn|zeig)\p{L}*\s+(?:diesen|diese|dieses|den)\s+(?:Schritt|Befehl|\u00c4nderung|Kommentar)\p{L}*\s+(?:[\p{L}]+\s+){0,4}?nicht\b`,
      impersonate: String.raw`\b(?:im Namen des|als w\u00e4rst du der)\s+(?:Benutzers|Nutzers|Anwenders)\b`,
    },
    transfer: String.raw`\b(?:send|schick|\u00fcbertrag|lad\p{L}*\s+(?:\p{L}+\s+){0,6}?hoch|h\u00e4ng|f\u00fcg|teil|synchronisier)\p{L}*`,
    discussing: String.raw`Prompt-Injection|Angriff\p{L}*|Angreifer\p{L}*|b\u00f6sartig\p{L}*|zum Beispiel|z\.\s?B\.`,
    negation: String.raw`\b(?:nie|niemals|nicht|keine?)\s+(?:\p{L}+\s+){0,4}$`,
  },
  fr: {
    written: {
      words:
        'les|des|est|une|pour|avec|vous|pas|dans|sur|que|qui|du|au|ne|tu|ce|cette|toutes|tous|et|rien|sans|utilisateur|pr\u00e9c\u00e9dentes|votre|ton|faire',
    },
    intents: {
      override: String.raw`\b(?:ignore|ignorez|oublie|oubliez)\s+${gap('jamais|pas')}(?:instructions|r\u00e8gles|consignes)\s+(?:pr\u00e9c\u00e9dentes|ant\u00e9rieures|ci-dessus|du syst\u00e8me|d['\u2019]origine)`,
      conceal: String.raw`\bne\s+(?:le\s+|lui\s+|rien\s+)*(?:dis|dites|mentionne|mentionnez|signale|signalez|r\u00e9v\u00e8le|r\u00e9v\u00e9lez)\s+(?:rien\s+|pas\s+)?(?:\u00e0\s+)?l['\u2019]utilisateur|\bsans\s+(?:le\s+dire\s+\u00e0|en\s+informer|informer|pr\u00e9venir)\s+l['\u2019]utilisateur|\b(?:secr\u00e8tement|en secret)\b`,
      unconfirmed: String.raw`\bsans\s+demander\s+(?:de\s+)?(?:confirmation|la permission|l['\u2019]autorisation)|\bsans\s+demander\b`,
      credentials: String.raw`\b(?:lis|lisez|lire|copie|copiez|collecte|collectez|ouvre|ouvrez)\b[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`\b(?:envoie|envoyez|envoyer|t\u00e9l\u00e9verse|t\u00e9l\u00e9versez|transmets|transmettez)\b[^.\n]{0,80}(?<!\p{L})(?:\u00e0|vers|sur)\s+${ADDRESS}`,
      impersonate: String.raw`\bau nom de l['\u2019]utilisateur\b|\ben te faisant passer pour l['\u2019]utilisateur\b`,
    },
    transfer: String.raw`\b(?:envoi|envoy|joins|joignez|t\u00e9l\u00e9vers|transmet|partag|synchronis)\p{L}*`,
    discussing: String.raw`injection de prompt|attaque\p{L}*|attaquant\p{L}*|malveillant\p{L}*|par exemple`,
    negation: String.raw`\b(?:jamais|ne\s+pas|n['\u2019]|pas)\s+(?:\p{L}+\s+){0,4}$`,
  },
  es: {
    written: {
      words:
        'los|las|una|para|del|por|que|est\u00e1|usted|pero|como|m\u00e1s|cuando|tu|al|lo|sin|todas|todos|nada|usuario|y|el|le|digas|anteriores',
    },
    intents: {
      override: String.raw`\b(?:ignora|ignore|olvida|olvide)\s+${gap('nunca|jam\u00e1s|no')}(?:instrucciones|reglas|indicaciones)\s+(?:anteriores|previas|de arriba|del sistema|originales)`,
      conceal: String.raw`\bno\s+(?:le\s+)?(?:digas|diga|menciones|mencione|informes|informe|avises|avise)\s+(?:nada\s+)?al\s+usuario|\bsin\s+(?:dec\u00edrselo|decirle|informar|avisar)\s+(?:nada\s+)?al\s+usuario|\b(?:en secreto|secretamente|a escondidas)\b`,
      unconfirmed: String.raw`\bsin\s+pedir\s+(?:confirmaci\u00f3n|permiso|autorizaci\u00f3n)|\bsin\s+preguntar\b`,
      credentials: String.raw`\b(?:lee|lea|leer|copia|copie|recopila|recopile|abre|abra)\b[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`\b(?:env\u00eda|envia|env\u00ede|enviar|sube|suba|transmite|transmita)\b[^.\n]{0,80}\b(?:a|al|hacia)\s+${ADDRESS}`,
      impersonate: String.raw`\ben nombre del usuario\b|\bhaci\u00e9ndote pasar por el usuario\b`,
    },
    transfer: String.raw`\b(?:env\u00ed|envi|adjunt|sub[ea]|transmit|compart|sincroniz)\p{L}*`,
    discussing: String.raw`inyecci\u00f3n de prompt|ataque\p{L}*|atacante\p{L}*|malicios\p{L}*|por ejemplo`,
    negation: String.raw`\b(?:nunca|jam\u00e1s|no)\s+(?:\p{L}+\s+){0,4}$`,
  },
  pt: {
    written: {
      words:
        'n\u00e3o|uma|para|dos|das|que|voc\u00ea|mas|como|mais|quando|isso|est\u00e1|ao|sem|todas|todos|nada|usu\u00e1rio|diga|anteriores|nome|pedir|confirma\u00e7\u00e3o',
    },
    intents: {
      override: String.raw`\b(?:ignore|ignora|esque\u00e7a|esquece|desconsidere)\s+${gap('nunca|jamais|n\u00e3o')}(?:instru\u00e7\u00f5es|regras|orienta\u00e7\u00f5es)\s+(?:anteriores|pr\u00e9vias|acima|do sistema|originais)`,
      conceal: String.raw`\bn\u00e3o\s+(?:diga|conte|mencione|informe|avise)\s+(?:nada\s+)?(?:ao|para\s+o)\s+usu\u00e1rio|\bsem\s+(?:avis\u00e1|inform\u00e1|cont\u00e1)-(?:lo|la)\b|\bsem\s+(?:contar|dizer|informar|avisar)\s+(?:nada\s+)?(?:ao|o)\s+usu\u00e1rio|\b(?:secretamente|em segredo|\u00e0s escondidas)\b`,
      unconfirmed: String.raw`\bsem\s+pedir\s+(?:confirma\u00e7\u00e3o|permiss\u00e3o|autoriza\u00e7\u00e3o)|\bsem\s+perguntar\b`,
      credentials: String.raw`\b(?:leia|ler|copie|copiar|colete|coletar|abra|abrir)\b[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`\b(?:envie|enviar|mande|mandar|carregue|transmita)\b[^.\n]{0,80}\b(?:para|a|ao)\s+${ADDRESS}`,
      impersonate: String.raw`\bem nome do usu\u00e1rio\b|\bcomo se (?:fosse|voc\u00ea fosse) o (?:pr\u00f3prio )?usu\u00e1rio\b`,
    },
    transfer: String.raw`\b(?:envi|mand|anex|carreg|transmit|compartilh|sincroniz)\p{L}*`,
    discussing: String.raw`inje\u00e7\u00e3o de prompt|ataque\p{L}*|atacante\p{L}*|malicios\p{L}*|por exemplo`,
    negation: String.raw`\b(?:nunca|jamais|n\u00e3o)\s+(?:\p{L}+\s+){0,4}$`,
  },
  zh: {
    written: { script: /[\u4e00-\u9fff]/ },
    intents: {
      override: String.raw`(?:\u5ffd\u7565|\u65e0\u89c6|\u5ffd\u89c6|\u5fd8\u8bb0|\u7121\u8996|\u5fd8\u8a18)(?:\u6389)?(?:\u4e4b\u524d|\u4ee5\u524d|\u5148\u524d|\u4e0a\u9762|\u4e0a\u8ff0|\u6240\u6709|\u5176\u4ed6|\u7cfb\u7edf|\u7cfb\u7d71|\u539f\u6765|\u539f\u4f86)\u7684?(?:\u6240\u6709|\u5168\u90e8)?(?:\u6307\u4ee4|\u6307\u793a|\u89c4\u5219|\u898f\u5247|\u8bf4\u660e|\u8aaa\u660e|\u63d0\u793a)`,
      conceal: String.raw`(?:\u4e0d\u8981|\u522b|\u5225|\u4e0d\u5f97|\u5207\u52ff)(?:\u544a\u8bc9|\u544a\u8a34|\u544a\u77e5|\u901a\u77e5|\u63d0\u9192|\u8ba9|\u8b93)\u7528\u6237|(?:\u7792\u7740|\u779e\u8457|\u80cc\u7740|\u80cc\u8457)\u7528\u6237|(?:\u5077\u5077|\u79d8\u5bc6\u5730|\u6084\u6084\u5730?)`,
      unconfirmed: String.raw`(?:\u65e0\u9700|\u7121\u9700|\u4e0d\u7528|\u4e0d\u8981|\u4e0d\u5fc5)(?:\u7528\u6237)?(?:\u786e\u8ba4|\u78ba\u8a8d|\u8be2\u95ee|\u8a62\u554f|\u8bb8\u53ef|\u8a31\u53ef)`,
      credentials: String.raw`(?:\u8bfb\u53d6|\u8b80\u53d6|\u590d\u5236|\u8907\u88fd|\u6536\u96c6|\u6253\u5f00|\u6253\u958b)[^\u3002\n]{0,30}(?:${CREDENTIAL_PATHS}|\u79c1\u94a5|\u79c1\u9470|\u51ed\u636e|\u6191\u64da|\u5bc6\u7801|\u5bc6\u78bc)`,
      send: String.raw`(?:\u53d1\u9001|\u767c\u9001|\u4e0a\u4f20|\u4e0a\u50b3|\u4f20\u9001|\u50b3\u9001)[^\u3002\n]{0,40}(?:\u5230|\u81f3)\s*${ADDRESS}`,
      impersonate: String.raw`(?:\u4ee5|\u5192\u5145)\u7528\u6237(?:\u7684)?(?:\u540d\u4e49|\u8eab\u4efd)`,
    },
    transfer: String.raw`\u53d1\u9001|\u767c\u9001|\u4e0a\u4f20|\u4e0a\u50b3|\u4f20\u9001|\u50b3\u9001|\u9644\u4e0a|\u9644\u52a0|\u63d0\u4ea4|\u540c\u6b65`,
    discussing: String.raw`\u63d0\u793a\u6ce8\u5165|\u653b\u51fb|\u653b\u64ca|\u653b\u51fb\u8005|\u6076\u610f|\u60e1\u610f|\u4f8b\u5982`,
    negation: String.raw`(?:\u4e0d\u8981|\u4e0d\u5f97|\u5207\u52ff|\u7981\u6b62|\u4e0d\u53ef\u4ee5?|\u522b|\u5225)\s*$`,
  },
  ja: {
    written: { script: /[\u3040-\u30ff]/ },
    intents: {
      override: String.raw`(?:\u4ee5\u524d|\u524d|\u4e0a\u8a18|\u3053\u308c\u307e\u3067|\u4ed6|\u30b7\u30b9\u30c6\u30e0)\u306e(?:\u3059\u3079\u3066\u306e|\u5168\u3066\u306e)?(?:\u6307\u793a|\u547d\u4ee4|\u30eb\u30fc\u30eb|\u6307\u4ee4)\u3092(?:\u3059\u3079\u3066|\u5168\u3066)?(?:\u7121\u8996|\u5fd8\u308c)(?:\u3057\u3066|\u3057\u308d|\u305b\u3088)`,
      conceal: String.raw`\u30e6\u30fc\u30b6\u30fc\u306b(?:\u306f)?(?:\u4f1d\u3048\u306a\u3044|\u77e5\u3089\u305b\u306a\u3044|\u8a00\u308f\u306a\u3044|\u6559\u3048\u306a\u3044|\u901a\u77e5\u3057\u306a\u3044|\u5831\u544a\u305b\u305a|\u5831\u544a\u3057\u306a\u3044|\u4f1d\u3048\u305a|\u77e5\u3089\u305b\u305a)|\u30e6\u30fc\u30b6\u30fc\u306b\u805e\u304b\u308c\u3066\u3082|\u30e6\u30fc\u30b6\u30fc\u306b(?:\u77e5\u3089\u308c|\u6c17\u3065\u304b\u308c)\u306a\u3044\u3088\u3046|(?:\u3053\u3063\u305d\u308a|\u5bc6\u304b\u306b|\u3072\u305d\u304b\u306b)`,
      unconfirmed: String.raw`(?:\u78ba\u8a8d|\u8a31\u53ef)\u3092(?:\u6c42\u3081|\u53d6\u3089)\u305a\u306b|\u78ba\u8a8d\u305b\u305a\u306b`,
      credentials: String.raw`(?:\u8aad\u307f\u53d6|\u8aad\u307f\u8fbc|\u8aad\u3093\u3067|\u30b3\u30d4\u30fc|\u53ce\u96c6)[^\u3002\n]{0,30}(?:${CREDENTIAL_PATHS}|\u79d8\u5bc6\u9375|\u8a8d\u8a3c\u60c5\u5831|\u30d1\u30b9\u30ef\u30fc\u30c9)|(?:${CREDENTIAL_PATHS}|\u79d8\u5bc6\u9375|\u8a8d\u8a3c\u60c5\u5831|\u30d1\u30b9\u30ef\u30fc\u30c9)[^\u3002\n]{0,20}(?:\u3092\u8aad\u307f\u53d6|\u3092\u8aad\u307f\u8fbc|\u3092\u8aad\u3093\u3067|\u3092\u30b3\u30d4\u30fc|\u3092\u53ce\u96c6)`,
      send: String.raw`${ADDRESS}\s*(?:\u306b|\u3078)[^\u3002\n]{0,30}(?:\u9001\u4fe1|\u9001\u3063\u3066|\u30a2\u30c3\u30d7\u30ed\u30fc\u30c9|\u8ee2\u9001)`,
      hideStep: String.raw`\u3053\u306e(?:\u5909\u66f4|\u624b\u9806|\u30b9\u30c6\u30c3\u30d7|\u30b3\u30de\u30f3\u30c9|\u51e6\u7406)(?:\u306f|\u3092)[^\u3002\n]{0,20}(?:\u5831\u544a\u305b\u305a|\u5831\u544a\u3057\u306a\u3044|\u8a00\u53ca\u3057\u306a\u3044|\u542b\u3081\u306a\u3044|\u4f1d\u3048\u306a\u3044|\u4f1d\u3048\u305a)`,
      impersonate: String.raw`\u30e6\u30fc\u30b6\u30fc(?:\u306e\u540d\u524d\u3067|\u306b\u306a\u308a\u3059\u307e)`,
    },
    transfer: String.raw`\u9001\u4fe1|\u9001\u3063\u3066|\u30a2\u30c3\u30d7\u30ed\u30fc\u30c9|\u8ee2\u9001|\u6dfb\u4ed8|\u540c\u671f`,
    discussing: String.raw`\u30d7\u30ed\u30f3\u30d7\u30c8\u30a4\u30f3\u30b8\u30a7\u30af\u30b7\u30e7\u30f3|\u653b\u6483|\u653b\u6483\u8005|\u60aa\u610f|\u4f8b\u3048\u3070`,
    negation: String.raw`(?:\u6c7a\u3057\u3066|\u7d76\u5bfe\u306b)\s*$`,
  },
  // Cyrillic letters are not word characters to `\b`: a word's edge is where letters stop.
  ru: {
    written: { script: /[\u0400-\u04ff]/ },
    intents: {
      override: String.raw`(?:\u0438\u0433\u043d\u043e\u0440\u0438\u0440\u0443\u0439|\u043f\u0440\u043e\u0438\u0433\u043d\u043e\u0440\u0438\u0440\u0443\u0439|\u0437\u0430\u0431\u0443\u0434\u044c|\u043d\u0435 \u043e\u0431\u0440\u0430\u0449\u0430\u0439 \u0432\u043d\u0438\u043c\u0430\u043d\u0438\u044f \u043d\u0430)\s+(?:\u0432\u0441\u0435\s+)?(?:\u043f\u0440\u0435\u0434\u044b\u0434\u0443\u0449\u0438\u0435|\u043f\u0440\u0435\u0436\u043d\u0438\u0435|\u043f\u0440\u043e\u0448\u043b\u044b\u0435|\u0441\u0438\u0441\u0442\u0435\u043c\u043d\u044b\u0435|\u0438\u0441\u0445\u043e\u0434\u043d\u044b\u0435|\u043e\u0441\u0442\u0430\u043b\u044c\u043d\u044b\u0435|\u0432\u044b\u0448\u0435\u0443\u043a\u0430\u0437\u0430\u043d\u043d\u044b\u0435)\s+(?:\u0438\u043d\u0441\u0442\u0440\u0443\u043a\u0446\u0438\u0438|\u0443\u043a\u0430\u0437\u0430\u043d\u0438\u044f|\u043f\u0440\u0430\u0432\u0438\u043b\u0430)`,
      conceal: String.raw`(?<!\p{L})(?:\u043d\u0438\u043a\u043e\u0433\u0434\u0430\s+)?\u043d\u0435\s+(?:\u0441\u043e\u043e\u0431\u0449\u0430\u0439|\u0433\u043e\u0432\u043e\u0440\u0438|\u0440\u0430\u0441\u0441\u043a\u0430\u0437\u044b\u0432\u0430\u0439|\u043f\u043e\u043a\u0430\u0437\u044b\u0432\u0430\u0439)\s+(?:\p{L}+\s+){0,2}?\u043f\u043e\u043b\u044c\u0437\u043e\u0432\u0430\u0442\u0435\u043b\p{L}*|(?<!\p{L})\u0441\u043a\u0440\u043e\u0439\s+(?:\p{L}+\s+){0,3}?\u043e\u0442\s+\u043f\u043e\u043b\u044c\u0437\u043e\u0432\u0430\u0442\u0435\u043b\p{L}*|(?<!\p{L})(?:\u0442\u0430\u0439\u043d\u043e|\u043d\u0435\u0437\u0430\u043c\u0435\u0442\u043d\u043e)(?!\p{L})`,
      hideStep: String.raw`(?<!\p{L})(?:\u043d\u0438\u043a\u043e\u0433\u0434\u0430\s+)?\u043d\u0435\s+(?:\u0443\u043f\u043e\u043c\u0438\u043d\u0430\u0439|\u043f\u043e\u043a\u0430\u0437\u044b\u0432\u0430\u0439|\u0441\u043e\u043e\u0431\u0449\u0430\u0439)\s+(?:\p{L}+\s+){0,3}?(?:\u0448\u0430\u0433\p{L}*|\u043a\u043e\u043c\u0430\u043d\u0434\p{L}*|\u0438\u0437\u043c\u0435\u043d\u0435\u043d\u0438\p{L}*)`,
      impersonate: String.raw`(?<!\p{L})\u043e\u0442\s+\u0438\u043c\u0435\u043d\u0438\s+\u043f\u043e\u043b\u044c\u0437\u043e\u0432\u0430\u0442\u0435\u043b\p{L}*`,
      unconfirmed: String.raw`(?<!\p{L})\u0431\u0435\u0437\s+(?:\u043f\u043e\u0434\u0442\u0432\u0435\u0440\u0436\u0434\u0435\u043d\u0438\u044f|\u0440\u0430\u0437\u0440\u0435\u0448\u0435\u043d\u0438\u044f|\u0441\u043e\u0433\u043b\u0430\u0441\u0438\u044f)|(?<!\p{L})\u043d\u0435\s+\u0441\u043f\u0440\u0430\u0448\u0438\u0432\u0430\u044f`,
      credentials: String.raw`(?<!\p{L})(?:\u043f\u0440\u043e\u0447\u0438\u0442\u0430\u0439|\u043f\u0440\u043e\u0447\u0442\u0438|\u0441\u043a\u043e\u043f\u0438\u0440\u0443\u0439|\u0441\u043e\u0431\u0435\u0440\u0438|\u043e\u0442\u043a\u0440\u043e\u0439)\p{L}*[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`(?<!\p{L})(?:\u043e\u0442\u043f\u0440\u0430\u0432|\u043f\u0435\u0440\u0435\u0448\u043b|\u0437\u0430\u0433\u0440\u0443\u0437\u0438|\u043f\u0435\u0440\u0435\u0434\u0430\u0439)\p{L}*[^.\n]{0,80}(?<!\p{L})(?:\u043d\u0430|\u0432)\s+${ADDRESS}`,
    },
    transfer: String.raw`(?<!\p{L})(?:\u043e\u0442\u043f\u0440\u0430\u0432|\u043f\u0435\u0440\u0435\u0448\u043b|\u0437\u0430\u0433\u0440\u0443\u0437|\u043f\u0435\u0440\u0435\u0434\u0430|\u043f\u0440\u0438\u043a\u0440\u0435\u043f|\u0441\u0438\u043d\u0445\u0440\u043e\u043d\u0438\u0437)\p{L}*`,
    discussing: String.raw`\u0430\u0442\u0430\u043a\p{L}*|\u0432\u0440\u0435\u0434\u043e\u043d\u043e\u0441\p{L}*|\u0437\u043b\u043e\u0443\u043c\u044b\u0448\u043b\u0435\u043d\u043d\u0438\u043a\p{L}*|\u043d\u0430\u043f\u0440\u0438\u043c\u0435\u0440|\u043f\u0440\u043e\u043c\u043f\u0442-\u0438\u043d\u044a\u0435\u043a\u0446\p{L}*`,
    negation: String.raw`(?<!\p{L})(?:\u043d\u0435|\u043d\u0438\u043a\u043e\u0433\u0434\u0430)\s+(?:\p{L}+\s+){0,4}$`,
  },
  it: {
    written: {
      words:
        'gli|che|sono|\u00e8|della|delle|degli|nel|nella|questo|questa|tutte|tutti|niente|nulla|utente|senza|anche|quando|pi\u00f9|chiedere|perch\u00e9|essere|dove',
    },
    intents: {
      override: String.raw`\b(?:ignora|ignorate|dimentica|dimenticate|trascura)\s+${gap('mai|non')}(?:istruzioni|regole|indicazioni)\s+(?:precedenti|di sopra|del sistema|di sistema|originali)`,
      conceal: String.raw`\bnon\s+(?:dire|dirlo|dirgli|menzionare|comunicare|segnalare|rivelare)\s+(?:niente\s+|nulla\s+)?(?:all['\u2019]|a\s+)utente|\bsenza\s+(?:dirlo|dire\s+niente|informare|avvisare)\s+(?:all['\u2019]|l['\u2019])utente|\b(?:di nascosto|segretamente|in segreto)\b`,
      unconfirmed: String.raw`\bsenza\s+chiedere\s+(?:conferma|il permesso|l['\u2019]autorizzazione)|\bsenza\s+chiedere\b|\bnon\s+chiedere\s+(?:\p{L}+\s+){0,3}?(?:conferma|il permesso)\b`,
      credentials: String.raw`\b(?:leggi|leggere|copia|copiare|raccogli|raccogliere|apri|aprire)\b[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`\b(?:invia|inviare|manda|mandare|carica|caricare|trasmetti|trasmettere)\b[^.\n]{0,80}\b(?:a|al|verso|su)\s+${ADDRESS}`,
      hideStep: String.raw`\bnon\s+(?:menzionare|citare|mostrare|riportare|elencare)\s+(?:questo|questa|questi|il|lo|la)\s+(?:passo|passaggio|comando|modifica|step|riga)\b`,
      impersonate: String.raw`\ba nome dell['\u2019]utente\b|\bfingendo(?:ti)? di essere l['\u2019]utente\b`,
    },
    transfer: String.raw`\b(?:invi|mand|alleg|caric|trasmett|condivid|sincronizz)\p{L}*`,
    discussing: String.raw`prompt injection|iniezione di prompt|attacc\p{L}*|malevol\p{L}*|dannos\p{L}*|per esempio|ad esempio`,
    negation: String.raw`\b(?:mai|non)\s+(?:\p{L}+\s+){0,4}$`,
  },
  nl: {
    written: {
      words:
        'het|een|niet|niets|zijn|voor|aan|deze|jij|alle|alles|zonder|naar|ook|nog|wordt|worden|moet|gebruiker|vraag|wanneer|omdat',
    },
    intents: {
      override: String.raw`\b(?:negeer|vergeet)\s+${gap('nooit|niet|geen')}(?:vorige|eerdere|bovenstaande|voorgaande|oorspronkelijke|systeem)\p{L}*\s+(?:instructies|regels|aanwijzingen)`,
      conceal: String.raw`\b(?:vertel|zeg|meld)\s+(?:het\s+|dit\s+)?(?:de\s+)?gebruiker\s+(?:\p{L}+\s+){0,2}?niets\b|\bzonder\s+(?:het\s+)?(?:de\s+)?gebruiker\s+(?:\p{L}+\s+){0,2}?(?:te\s+)?(?:informeren|vertellen|melden|waarschuwen)\b|\b(?:stiekem|in het geheim|heimelijk)\b`,
      unconfirmed: String.raw`\bzonder\s+(?:om\s+)?(?:bevestiging|toestemming)\s+(?:te\s+)?vragen|\bzonder\s+(?:te\s+)?vragen\b|\bvraag\s+(?:de\s+)?gebruiker\s+(?:\p{L}+\s+){0,2}?niet\s+om\s+(?:bevestiging|toestemming)`,
      credentials: String.raw`\b(?:lees|kopieer|verzamel|open)\p{L}*\b[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`\b(?:stuur|verstuur|verzend|upload)\p{L}*\b[^.\n]{0,80}\b(?:naar|aan|op)\s+${ADDRESS}`,
      hideStep: String.raw`\b(?:vermeld|noem|toon)\s+(?:deze|dit|de)\s+(?:stap|opdracht|wijziging|commando|regel)\s+(?:\p{L}+\s+){0,4}?niet\b`,
      impersonate: String.raw`\bin naam van de gebruiker\b|\balsof je de gebruiker bent\b`,
    },
    transfer: String.raw`\b(?:stuur|verstuur|verzend|upload|deel|synchroniseer|voeg\s+(?:\p{L}+\s+){0,4}?toe)\p{L}*`,
    discussing: String.raw`prompt-injectie|prompt injection|aanval\p{L}*|aanvaller\p{L}*|kwaadaardig\p{L}*|bijvoorbeeld`,
    negation: String.raw`\b(?:nooit|niet|geen)\s+(?:\p{L}+\s+){0,4}$`,
  },
  // Korean negates after the verb (\ud558\uc9c0 \ub9c8): each pattern holds its own negation, none is read before
  // a cue.
  ko: {
    written: { script: /[\uac00-\ud7af]/ },
    intents: {
      override: String.raw`(?:\uc774\uc804|\uc55e|\uc704|\uae30\uc874|\ub2e4\ub978|\uc2dc\uc2a4\ud15c)(?:\uc758)?\s*(?:\ubaa8\ub4e0\s*)?(?:\uc9c0\uc2dc|\uc9c0\uce68|\uba85\ub839|\uaddc\uce59|\ud504\ub86c\ud504\ud2b8)\S*\s*(?:\ubaa8\ub450\s*)?\ubb34\uc2dc`,
      conceal: String.raw`\uc0ac\uc6a9\uc790(?:\uc5d0\uac8c|\ud55c\ud14c)\s*(?:\S+\s*){0,2}?(?:\uc54c\ub9ac|\ub9d0\ud558|\ubcf4\uc5ec\uc8fc|\ubcf4\uace0\ud558)(?:\uc9c0|\uac70\ub098)|\uc0ac\uc6a9\uc790\s*\ubaa8\ub974\uac8c|\ubab0\ub798`,
      hideStep: String.raw`(?:\uc774|\ud574\ub2f9)\s*(?:\ub2e8\uacc4|\uba85\ub839|\ubcc0\uacbd|\uc791\uc5c5)\S*\s*(?:\S+\s*){0,3}?\uc5b8\uae09\ud558\uc9c0`,
      impersonate: String.raw`\uc0ac\uc6a9\uc790(?:\uc758)?\s*(?:\uc774\ub984\uc73c\ub85c|\uba85\uc758\ub85c)|\uc0ac\uc6a9\uc790\uc778\s*\uac83\ucc98\ub7fc`,
      unconfirmed: String.raw`\ud655\uc778(?:\uc744|\ub97c)?\s*(?:\uc694\uccad\ud558|\uad6c\ud558|\ubc1b)\uc9c0|\ud655\uc778\s*\uc5c6\uc774|\ubb3b\uc9c0\s*(?:\ub9d0\uace0|\uc54a\uace0)`,
      credentials: String.raw`${CREDENTIAL_PATHS}[^.\n]{0,60}\uc77d|\uc77d\S*\s*[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`${ADDRESS}\s*(?:\uc73c\ub85c|\ub85c)\s*[^.\n]{0,40}(?:\ubcf4\ub0b4|\uc804\uc1a1|\uc5c5\ub85c\ub4dc)`,
    },
    transfer: String.raw`\ubcf4\ub0b4|\uc804\uc1a1|\uc5c5\ub85c\ub4dc|\ucca8\ubd80|\ub3d9\uae30\ud654`,
    discussing: String.raw`\uacf5\uaca9|\uc545\uc131|\uc608\ub97c \ub4e4\uc5b4|\ud504\ub86c\ud504\ud2b8 \uc778\uc81d\uc158`,
    negation: String.raw`(?!)`,
  },
};

/** Each word some language written in Latin letters is known by, with those languages. */
const WORDS = new Map<string, string[]>();
for (const [code, language] of Object.entries(LANGUAGES))
  if ('words' in language.written)
    for (const word of language.written.words.split('|')) WORDS.set(word, [...(WORDS.get(word) ?? []), code]);
/** Any of them, read in one pass (without the `u` flag, which makes a scan of a long text several times slower). */
const ANY_WORD = new RegExp(String.raw`\b(?:${[...WORDS.keys()].join('|')})(?![A-Za-z\u00C0-\u024F])`, 'g');

/**
 * The languages written in Latin letters a text is in: different words of each one's commonest (as they are written
 * mid-sentence), three of them in a page, which English prose does not hold by chance; fewer in a sentence or two,
 * where reading it in one more language costs nothing.
 */
function latinLanguages(text: string, found: Set<string>): void {
  const enough = text.length < 200 ? 1 : text.length < 1000 ? 2 : 3;
  const seen = new Map<string, Set<string>>();
  for (const match of text.matchAll(ANY_WORD))
    for (const code of WORDS.get(match[0])!) {
      const words = seen.get(code) ?? new Set<string>();
      seen.set(code, words.add(match[0]));
      if (words.size >= enough) found.add(code);
    }
}

/** The languages but English some of `texts` is written in, by their codes (`de`, `ja`), in table order. */
export function languagesOf(texts: readonly string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    latinLanguages(text, found);
    for (const [code, language] of Object.entries(LANGUAGES))
      if ('script' in language.written && language.written.script.test(text)) found.add(code);
  }
  return Object.keys(LANGUAGES).filter((code) => found.has(code));
}

/**
 * Patterns, each built once for a set of languages: reading every text in every language costs every text a pattern
 * no engine can scan quickly (each alternative starts differently), most of them for languages it is not written in.
 */
const built = new Map<string, RegExp>();
function once(key: string, sources: () => string[]): RegExp {
  let pattern = built.get(key);
  if (!pattern) {
    pattern = new RegExp(
      sources()
        .map((source) => `(?:${source})`)
        .join('|') || '(?!)',
      'iu',
    );
    built.set(key, pattern);
  }
  return pattern;
}
const of = (languages: readonly string[]) => languages.map((code) => LANGUAGES[code]);

/**
 * What each of `languages` says for an intent, as one pattern (none when none says it). English is a pattern of its
 * own, without the `u` flag this one needs, which makes a scan of a long text several times slower.
 */
export function elsewhere(intent: Intent, languages: readonly string[]): RegExp | undefined {
  const sources = of(languages).flatMap((language) => language.intents[intent] ?? []);
  return sources.length === 0 ? undefined : once(`${intent}:${languages.join()}`, () => sources);
}

/** Words of prose that discusses attacks, in `languages`. */
export function discussingIn(languages: readonly string[]): RegExp {
  return once(`discussing:${languages.join()}`, () => of(languages).map((language) => language.discussing));
}

/** Verbs for sending something, in `languages`. */
export function transferIn(languages: readonly string[]): RegExp {
  return once(`transfer:${languages.join()}`, () => of(languages).map((language) => language.transfer));
}

/** A negation just before a cue, in `languages`. */
export function negatedIn(languages: readonly string[]): RegExp {
  return once(`negated:${languages.join()}`, () => of(languages).map((language) => language.negation));
}
