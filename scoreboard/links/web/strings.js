// Every word the page shows the host, in Russian (default) and English.
"use strict";

const STRINGS = {
  ru: {
    title: "Пульт ведущего", passcode: "Код доступа", connect: "Подключиться", view_only: "только смотреть",
    passcode_where: "Код — на экране ведущего на табло и в файле настроек табло ([osc] passcode); QR-код на том же экране подключает без кода.",
    key_refused: "Ссылка не от этого табло (его ключ сменился): отсканируйте QR-код на экране ведущего снова или введите код.",
    online: "на связи", offline: "нет связи", box: "кнопки", box_online: "кнопки на связи",
    box_offline: "кнопки отключены", box_reconnecting: "кнопки: переподключение", box_none: "без кнопок",
    journal_bad: "журнал не пишется", waiting: "ждёт подтверждения", unconfirmed: "не подтверждено — проверьте табло",
    denied: "Отказ", refused: "Отказано", done: "Сделано",
    start: "Начать игру", next: "Дальше", read: "Прочитан", right: "Верно", wrong: "Неверно", time: "Время",
    resume: "Продолжить", extend: "+3 с", clarify: "Уточните", replace: "Заменить вопрос",
    undo: "Отменить", pause: "Пауза", unpause: "Снять паузу", manual_on: "Кнопки: вручную",
    manual_off: "Кнопки: включить", adjust: "±", chooser: "Выбирает", assign: "Отвечает",
    bid: "Ставка", allin: "Ва-банк", pass: "Пас", stake: "Ставка", stake_in: "ставка принята",
    final_start: "Старт (вопрос прочитан)", end_writing: "Конец записи", reveal_seat: "Открыть",
    rejudge_right: "засчитать", rejudge_wrong: "снять", answer: "Ответ", accepts: "Зачёт", comment: "Комментарий",
    // SIGame's special questions on the host's card (issue 10 P1): a cat in the bag's own topic and price, a select
    // question's options, and how this board plays a kind SIGame plays otherwise
    cat: "Кот в мешке", cat_topic: "тема", cat_price: "цена в пакете", or: "или", step: "шаг", options: "Варианты",
    empty_cell: "пустая клетка",
    kinds: { secretNoQuestion: "кот в мешке без вопроса: начислите цену поправкой",
      secretPublicPrice: "цена кота известна игрокам до передачи",
      noRisk: "вопрос без риска (SIGame): здесь считается как обычный", sponsored: "вопрос без риска (SIGame): здесь считается как обычный",
      forAll: "вопрос для всех (SIGame): здесь отвечает нажавший", stakeAll: "ставки всех (SIGame): здесь идёт по своей цене",
      forYourself: "вопрос для себя (SIGame): здесь решают кнопки" },
    kind_other: "особый вопрос SIGame «{kind}»: играется как обычный",
    wrongs: "Неверные", source: "Источник", no_question: "Вопрос не открыт", names: "Имена игроков",
    seat: "Место", set_name: "Сохранить", amount: "Сумма", cancel: "Отмена", ok: "OK",
    screen: "Экран зала", screens: { board: "табло", scores: "счёт", chart: "график", logo: "заставка",
      winner: "победитель", bracket: "сетка", standings: "таблица" },
    protocol: "Протокол", open_protocol: "Открыть протокол боя",
    waive: "Без аукциона", mark_auction: "Отметить аукцион", auction_marked: "Аукцион: выберите клетку", show_board: "Табло в зал",
    media_pause: "Пауза видео", media_play: "Пуск видео", media_replay: "Повтор", paused: "пауза",
    phase: { setup: "подготовка", round_intro: "начало раунда", choosing: "выбор вопроса", topic_intro: "тема",
      reading: "чтение", buzz_window: "жмите", answering: "ответ", after_wrong: "после неверного",
      reveal: "ответ показан", auction: "аукцион", auction_answer: "ответ аукциона", final_stakes: "ставки",
      final_answer: "запись ответов", final_reveal: "открытие ответов", game_over: "игра окончена" },
    regulation: "Регламент", stage: "Этап", seats_count: "Игроков", new_game: "Новая игра с этими настройками",
    next_game: "Следующая игра турнира", pack: "Пакет", no_pack: "без пакета", load_pack: "Загрузить пакет",
    no_pack_note: "Пакет не загружен: игра пойдёт без пакета — темы по номерам, вопросы ведущий читает с листа (P3).",
    pack_errors: "Ошибки", pack_warnings: "Предупреждения", rounds: "раунды", topics_needed: "Нужно тем",
    choose_topics: "Отметьте темы (по порядку игры)", folder_problems: "Папки пакетов",
    final_topic: "Тема финала", topic: "Тема", tiebreak: "доп. тема", super_question: "суперфинал", out_of_play: "не играет в доп. теме",
    lang: "English",
  },
  en: {
    title: "Host remote", passcode: "Passcode", connect: "Connect", view_only: "view only",
    passcode_where: "The passcode is on the host's screen of the board and in the board's config ([osc] passcode); the QR code on that screen connects without it.",
    key_refused: "The link is not this board's (its key has changed): scan the QR code on the host's screen again or type the passcode.",
    online: "online", offline: "no link", box: "buttons", box_online: "buttons online",
    box_offline: "buttons offline", box_reconnecting: "buttons reconnecting", box_none: "no buttons",
    journal_bad: "journal not writing", waiting: "waiting for the board", unconfirmed: "not confirmed — check the board",
    denied: "Denied", refused: "Refused", done: "Done",
    start: "Start game", next: "Next", read: "Read", right: "Right", wrong: "Wrong", time: "Time",
    resume: "Resume", extend: "+3 s", clarify: "Clarify", replace: "Replace question",
    undo: "Undo", pause: "Pause", unpause: "Unpause", manual_on: "Buttons: manual",
    manual_off: "Buttons: on", adjust: "±", chooser: "Chooses", assign: "Answers",
    bid: "Bid", allin: "All-in", pass: "Pass", stake: "Stake", stake_in: "stake in",
    final_start: "Start (question read)", end_writing: "End writing", reveal_seat: "Reveal",
    rejudge_right: "accept", rejudge_wrong: "reject", answer: "Answer", accepts: "Accepted", comment: "Comment",
    cat: "Cat in the bag", cat_topic: "topic", cat_price: "pack price", or: "or", step: "step", options: "Options",
    empty_cell: "empty cell",
    kinds: { secretNoQuestion: "cat in the bag with no question: award its price by a correction",
      secretPublicPrice: "the players know the cat's price before it is given",
      noRisk: "no-risk question (SIGame): scored as usual here", sponsored: "no-risk question (SIGame): scored as usual here",
      forAll: "question for all (SIGame): whoever presses answers here", stakeAll: "stakes from all (SIGame): played at its own value here",
      forYourself: "question for the chooser (SIGame): the buttons decide here" },
    kind_other: "special SIGame question «{kind}»: played as a plain one",
    wrongs: "Wrong answers", source: "Source", no_question: "No question open", names: "Players' names",
    seat: "Seat", set_name: "Save", amount: "Amount", cancel: "Cancel", ok: "OK",
    screen: "Hall screen", screens: { board: "board", scores: "scores", chart: "chart", logo: "logo",
      winner: "winner", bracket: "bracket", standings: "standings" },
    protocol: "Protocol", open_protocol: "Open the game's protocol",
    waive: "No auction", mark_auction: "Mark auction", auction_marked: "Auction: pick the cell", show_board: "Board to the hall",
    media_pause: "Pause video", media_play: "Play video", media_replay: "Replay", paused: "paused",
    phase: { setup: "set-up", round_intro: "round", choosing: "choosing", topic_intro: "topic",
      reading: "reading", buzz_window: "press now", answering: "answering", after_wrong: "after a wrong answer",
      reveal: "answer shown", auction: "auction", auction_answer: "auction answer", final_stakes: "stakes",
      final_answer: "writing", final_reveal: "revealing", game_over: "game over" },
    regulation: "Regulation", stage: "Stage", seats_count: "Players", new_game: "New game with these settings",
    next_game: "Next tournament game", pack: "Pack", no_pack: "no pack", load_pack: "Load pack",
    no_pack_note: "No pack loaded: the game runs without one — topics by number, the host reads from paper (P3).",
    pack_errors: "Errors", pack_warnings: "Warnings", rounds: "rounds", topics_needed: "Topics needed",
    choose_topics: "Tick the topics (in play order)", folder_problems: "Pack folders",
    final_topic: "Final topic", topic: "Topic", tiebreak: "tie-break topic", super_question: "super-question", out_of_play: "not in the tie-break",
    lang: "Русский",
  },
};

// The board's refusals and denials arrive in English (the protocol's words); say them in the page's language from
// the board's own table (/words.js). A reason the table does not know is shown as the board said it.
function boardWords(kind, reason, lang) {
  if (lang === "en" || typeof BOARD_WORDS === "undefined") return reason;
  for (const [pattern, phrase] of BOARD_WORDS[kind]) {
    const whole = new RegExp(`^(?:${pattern})$`, "s");
    const found = reason.match(whole);
    if (!found) continue;
    if (phrase.includes("{phase}")) return phrase.replace("{phase}", BOARD_WORDS.phases[found[1]] || found[1]);
    return reason.replace(whole, phrase);
  }
  return kind === "refusals" ? `табло отказало: ${reason}` : reason;
}
