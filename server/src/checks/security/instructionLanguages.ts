// What hostile_instruction recognises in each language a skill may be written in, by intent: what the prose asks the
// agent to do, in the words and word order of that language. English is in hostileInstructions.ts; to add a language,
// add an entry here with a pattern for each intent it can say (an intent left out is simply not read in it), its
// words for discussing an attack, and its negations, and a test with a benign twin.

/** What an instruction against the user asks of the agent. */
export type Intent = 'override' | 'conceal' | 'unconfirmed' | 'credentials' | 'send';

interface Language {
  intents: Partial<Record<Intent, string>>;
  /** Words of prose that discusses attacks rather than making one ("prompt injection", "for example"). */
  discussing: string;
  /** A negation just before a cue: it forbids what the cue says. */
  negation: string;
}

/** Files a thief takes, named the same in every language. */
const CREDENTIAL_PATHS = String.raw`(?:~\/\.ssh|\bid_(?:rsa|ed25519|ecdsa)\b|\.aws\/credentials|\.netrc\b|\.git-credentials|\.npmrc\b|\.env\b)`;
/** Where data is sent: an address. */
const ADDRESS = String.raw`https?:\/\/\S+`;
/** Up to three words between, none of them a negation the language uses inside a phrase. */
const gap = (negations: string) => String.raw`(?:(?!(?:${negations})\b)[\p{L}\p{N}'’-]+\s+){0,3}?`;

const LANGUAGES: Record<string, Language> = {
  de: {
    intents: {
      override: String.raw`(?<!\p{L})(?:ignorier|vergiss|vergesst|missacht|übergeh)\p{L}*\s+${gap('nie|niemals|nicht|keine?')}(?:vorherig|bisherig|obig|früher|ander|ursprünglich|System)\p{L}*\s+(?:Anweisungen|Regeln|Instruktionen|Vorgaben)`,
      conceal: String.raw`\b(?:sag|erzähl|verrat|teil)\p{L}*\s+${gap('nie|niemals')}(?:Benutzer|Nutzer|Anwender)\p{L}*\s+(?:\p{L}+\s+){0,2}?nichts\b|\bohne\s+(?:\p{L}+\s+){0,2}?(?:Benutzer|Nutzer|Anwender)\p{L}*\s+(?:\p{L}+\s+){0,2}?(?:zu\s+)?(?:informieren|benachrichtigen|sagen)\b|\b(?:heimlich|unbemerkt)\b`,
      unconfirmed: String.raw`\bohne\s+(?:nach\s+)?(?:Bestätigung|Rückfrage|Erlaubnis)\b|\bohne\s+(?:zu\s+)?fragen\b`,
      credentials: String.raw`\b(?:lies|lese|lesen|kopier|sammle|sammeln|öffne)\p{L}*\b[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`\b(?:send|schick|übertrag|lad)\p{L}*\b[^.\n]{0,80}\b(?:an|nach|auf)\s+${ADDRESS}`,
    },
    discussing: String.raw`Prompt-Injection|Angriff\p{L}*|Angreifer\p{L}*|bösartig\p{L}*|zum Beispiel|z\.\s?B\.`,
    negation: String.raw`\b(?:nie|niemals|nicht|keine?)\s+(?:\p{L}+\s+){0,4}$`,
  },
  fr: {
    intents: {
      override: String.raw`\b(?:ignore|ignorez|oublie|oubliez)\s+${gap('jamais|pas')}(?:instructions|règles|consignes)\s+(?:précédentes|antérieures|ci-dessus|du système|d['’]origine)`,
      conceal: String.raw`\bne\s+(?:le\s+|lui\s+|rien\s+)*(?:dis|dites|mentionne|mentionnez|signale|signalez|révèle|révélez)\s+(?:rien\s+|pas\s+)?(?:à\s+)?l['’]utilisateur|\bsans\s+(?:le\s+dire\s+à|en\s+informer|informer|prévenir)\s+l['’]utilisateur|\b(?:secrètement|en secret)\b`,
      unconfirmed: String.raw`\bsans\s+demander\s+(?:de\s+)?(?:confirmation|la permission|l['’]autorisation)|\bsans\s+demander\b`,
      credentials: String.raw`\b(?:lis|lisez|lire|copie|copiez|collecte|collectez|ouvre|ouvrez)\b[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`\b(?:envoie|envoyez|envoyer|téléverse|téléversez|transmets|transmettez)\b[^.\n]{0,80}(?<!\p{L})(?:à|vers|sur)\s+${ADDRESS}`,
    },
    discussing: String.raw`injection de prompt|attaque\p{L}*|attaquant\p{L}*|malveillant\p{L}*|par exemple`,
    negation: String.raw`\b(?:jamais|ne\s+pas|n['’]|pas)\s+(?:\p{L}+\s+){0,4}$`,
  },
  es: {
    intents: {
      override: String.raw`\b(?:ignora|ignore|olvida|olvide)\s+${gap('nunca|jamás|no')}(?:instrucciones|reglas|indicaciones)\s+(?:anteriores|previas|de arriba|del sistema|originales)`,
      conceal: String.raw`\bno\s+(?:le\s+)?(?:digas|diga|menciones|mencione|informes|informe|avises|avise)\s+(?:nada\s+)?al\s+usuario|\bsin\s+(?:decírselo|decirle|informar|avisar)\s+(?:nada\s+)?al\s+usuario|\b(?:en secreto|secretamente|a escondidas)\b`,
      unconfirmed: String.raw`\bsin\s+pedir\s+(?:confirmación|permiso|autorización)|\bsin\s+preguntar\b`,
      credentials: String.raw`\b(?:lee|lea|leer|copia|copie|recopila|recopile|abre|abra)\b[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`\b(?:envía|envia|envíe|enviar|sube|suba|transmite|transmita)\b[^.\n]{0,80}\b(?:a|al|hacia)\s+${ADDRESS}`,
    },
    discussing: String.raw`inyección de prompt|ataque\p{L}*|atacante\p{L}*|malicios\p{L}*|por ejemplo`,
    negation: String.raw`\b(?:nunca|jamás|no)\s+(?:\p{L}+\s+){0,4}$`,
  },
  pt: {
    intents: {
      override: String.raw`\b(?:ignore|ignora|esqueça|esquece|desconsidere)\s+${gap('nunca|jamais|não')}(?:instruções|regras|orientações)\s+(?:anteriores|prévias|acima|do sistema|originais)`,
      conceal: String.raw`\bnão\s+(?:diga|conte|mencione|informe|avise)\s+(?:nada\s+)?(?:ao|para\s+o)\s+usuário|\bsem\s+(?:contar|dizer|informar|avisar)\s+(?:nada\s+)?(?:ao|o)\s+usuário|\b(?:secretamente|em segredo|às escondidas)\b`,
      unconfirmed: String.raw`\bsem\s+pedir\s+(?:confirmação|permissão|autorização)|\bsem\s+perguntar\b`,
      credentials: String.raw`\b(?:leia|ler|copie|copiar|colete|coletar|abra|abrir)\b[^.\n]{0,60}${CREDENTIAL_PATHS}`,
      send: String.raw`\b(?:envie|enviar|mande|mandar|carregue|transmita)\b[^.\n]{0,80}\b(?:para|a|ao)\s+${ADDRESS}`,
    },
    discussing: String.raw`injeção de prompt|ataque\p{L}*|atacante\p{L}*|malicios\p{L}*|por exemplo`,
    negation: String.raw`\b(?:nunca|jamais|não)\s+(?:\p{L}+\s+){0,4}$`,
  },
  zh: {
    intents: {
      override: String.raw`(?:忽略|无视|忽视|忘记|無視|忘記)(?:掉)?(?:之前|以前|先前|上面|上述|所有|其他|系统|系統|原来|原來)的?(?:所有|全部)?(?:指令|指示|规则|規則|说明|說明|提示)`,
      conceal: String.raw`(?:不要|别|別|不得|切勿)(?:告诉|告訴|告知|通知|提醒|让|讓)用户|(?:瞒着|瞞著|背着|背著)用户|(?:偷偷|秘密地|悄悄地?)`,
      unconfirmed: String.raw`(?:无需|無需|不用|不要|不必)(?:用户)?(?:确认|確認|询问|詢問|许可|許可)`,
      credentials: String.raw`(?:读取|讀取|复制|複製|收集|打开|打開)[^。\n]{0,30}(?:${CREDENTIAL_PATHS}|私钥|私鑰|凭据|憑據|密码|密碼)`,
      send: String.raw`(?:发送|發送|上传|上傳|传送|傳送)[^。\n]{0,40}(?:到|至)\s*${ADDRESS}`,
    },
    discussing: String.raw`提示注入|攻击|攻擊|攻击者|恶意|惡意|例如`,
    negation: String.raw`(?:不要|不得|切勿|禁止|不可以?|别|別)\s*$`,
  },
  ja: {
    intents: {
      override: String.raw`(?:以前|前|上記|これまで|他|システム)の(?:すべての|全ての)?(?:指示|命令|ルール|指令)を(?:すべて|全て)?(?:無視|忘れ)(?:して|しろ|せよ)`,
      conceal: String.raw`ユーザーに(?:は)?(?:伝えない|知らせない|言わない|教えない|通知しない)|ユーザーに(?:知られ|気づかれ)ないよう|(?:こっそり|密かに|ひそかに)`,
      unconfirmed: String.raw`(?:確認|許可)を(?:求め|取ら)ずに|確認せずに`,
      credentials: String.raw`(?:読み取|読み込|読んで|コピー|収集)[^。\n]{0,30}(?:${CREDENTIAL_PATHS}|秘密鍵|認証情報|パスワード)|(?:${CREDENTIAL_PATHS}|秘密鍵|認証情報|パスワード)[^。\n]{0,20}(?:を読み取|を読み込|を読んで|をコピー|を収集)`,
      send: String.raw`${ADDRESS}\s*(?:に|へ)[^。\n]{0,30}(?:送信|送って|アップロード|転送)`,
    },
    discussing: String.raw`プロンプトインジェクション|攻撃|攻撃者|悪意|例えば`,
    negation: String.raw`(?:決して|絶対に)\s*$`,
  },
};

/** An English cue's pattern, widened with what each other language says for the same intent. */
export function inEveryLanguage(intent: Intent, english: RegExp): RegExp {
  const others = Object.values(LANGUAGES).flatMap((language) => language.intents[intent] ?? []);
  return new RegExp([english.source, ...others].map((source) => `(?:${source})`).join('|'), 'iu');
}

/** Words of prose that discusses attacks, in every language but English. */
export const DISCUSSING_ELSEWHERE = new RegExp(
  Object.values(LANGUAGES)
    .map((language) => language.discussing)
    .join('|'),
  'iu',
);

/** A negation just before a cue, in every language but English. */
export const NEGATED_ELSEWHERE = new RegExp(
  Object.values(LANGUAGES)
    .map((language) => `(?:${language.negation})`)
    .join('|'),
  'iu',
);
