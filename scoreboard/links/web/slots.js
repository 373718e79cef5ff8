// Which actions the host has in each phase, drawn from the board's snapshot alone (as host_remote/actions.py
// decides for the laptop remote). Every action has a fixed slot within a phase: one that does not apply is
// disabled in its place, never removed, so a thumb's second tap lands where the first did.
"use strict";

const Slots = (() => {
  let T, markAuction, name, players, scene, judgedHere;   // the page's language, mode and helpers (use())
  function use(c) { ({ T, markAuction, name, players, scene, judgedHere } = c); }

  function act(key, label, address, args, enabled, extra) {
    return Object.assign({ key, label, address, args: args || [], enabled: !!enabled }, extra || {});
  }

  const QUESTION_PHASES = ["reading", "buzz_window", "answering", "after_wrong", "auction_answer"];

  function flowSlots(s) {
    const phase = s.phase, q = s.question || {};
    if (QUESTION_PHASES.includes(phase)) {
      const answering = phase === "answering" || phase === "auction_answer";
      return [
        act("read", T.read, "/sg/reading/done", [], phase === "reading" || (phase === "auction_answer" && q.reading)),
        act("right", T.right, "/sg/judge/right", [], answering, { cls: "right" }),
        act("wrong", T.wrong, "/sg/judge/wrong", [], answering, { cls: "wrong" }),
        act("time", T.time, "/sg/time", [], ["reading", "buzz_window", "after_wrong"].includes(phase)),
        act("resume", T.resume, "/sg/resume", [], phase === "after_wrong"),
        act("extend", T.extend, "/sg/answer/extend", [3], answering && q.deadline != null),
        act("clarify", T.clarify, "/sg/answer/clarify", [], phase === "answering" && q.deadline != null),
        act("replace", T.replace, "/sg/question/replace", [], phase === "reading" || phase === "buzz_window"),
      ];
    }
    if (phase === "setup") return [act("start", T.start, "/sg/game/start", [], true, { cls: "wide" })];
    if (phase === "final_stakes") {
      const f = s.final || {};
      const all = (f.eligible || []).every((seat) => (f.stakes_in || []).includes(seat));
      return [act("final_start", T.final_start, "/sg/final/start", [], all && (f.eligible || []).length, { cls: "wide" }),
              act("final_topic", `${T.final_topic}: ${f.topic || "—"}`, "/sg/final/topic", [], true,
                  { cls: "wide", amount: { text: true } })];
    }
    if (phase === "final_answer") return [act("end_writing", T.end_writing, "/sg/next", [], true, { cls: "wide" })];
    if (phase === "reveal") {
      const sequential = s.order === "sequential";
      return [act("next", T.next, "/sg/next", [], sequential || boardEmpty(s)),
              act("replace", T.replace, "/sg/question/replace", [], true)];
    }
    if (phase === "round_intro" || phase === "topic_intro") {
      const choice = s.order !== "sequential";
      return [act("next", T.next, "/sg/next", [], !choice || phase === "round_intro")];
    }
    // the game's protocol (протокол боя): the board answers this page alone with a link (/sg/protocol/link)
    if (phase === "game_over") return [act("protocol", T.protocol, "/sg/protocol", [], true, { cls: "wide" })];
    return [];
  }

  function boardEmpty(s) {
    return (((s.round || {}).topics) || []).every((t) => (t.cells || []).every((c) => c.played));
  }

  function gridCells(s) {
    const choice = s.order !== "sequential";
    if (!choice || !["round_intro", "choosing", "reveal"].includes(s.phase)) return [];
    const open = s.chooser != null;     // G5: nobody selects before the chooser is named
    const cells = [];
    ((s.round || {}).topics || []).forEach((topic, t) => {
      cells.push({ key: `topic:${t + 1}`, label: topic.name || String(t + 1), topic: true });
      (topic.cells || []).forEach((cell, q) => {
        const args = markAuction ? [t + 1, q + 1, "auction"] : [t + 1, q + 1];
        cells.push(act(`select:${t + 1}:${q + 1}`, String(cell.value), "/sg/select", args,
                       open && !cell.played, { cls: cell.played ? "played" : "", said: `${topic.name} ${cell.value}` }));
      });
    });
    return cells;
  }

  function seatSlots(s, p) {
    const phase = s.phase, seat = p.seat, q = s.question || {};
    const answered = new Set((q.answered || []).map((a) => a.seat));
    const slots = [];
    if (["round_intro", "choosing", "reveal"].includes(phase) && s.order !== "sequential") {
      slots.push(act(`chooser:${seat}`, T.chooser, "/sg/chooser", [seat], s.chooser !== seat && p.in_play !== false));
    }
    if (["reading", "buzz_window", "after_wrong"].includes(phase) && s.buttons_manual) {
      slots.push(act(`assign:${seat}`, T.assign, "/sg/assign", [seat], !answered.has(seat)));
    }
    if (phase === "auction") {
      const a = s.auction || {};
      const mine = a.turn === seat && !(a.passed || []).includes(seat);
      slots.push(act(`bid:${seat}`, T.bid, "/sg/auction/bid", [seat], mine,
                     { amount: { low: (a.stake || 0) + 1, high: Math.max(p.score || 0, a.stake || 0), who: name(p) } }));
      slots.push(act(`allin:${seat}`, T.allin, "/sg/auction/allin", [seat], mine));
      slots.push(act(`pass:${seat}`, T.pass, "/sg/auction/pass", [seat], mine));
    }
    const f = s.final || {};
    const eligible = (f.eligible || []).includes(seat);
    if (phase === "final_stakes") {
      const low = f.kind === "super_question" || (p.score || 0) <= 0 ? 0 : 1;
      const inn = (f.stakes_in || []).includes(seat);
      slots.push(act(`stake:${seat}`, inn ? `${T.stake} ✓` : T.stake, "/sg/final/stake", [seat], eligible,
                     { amount: { low, high: Math.max(p.score || 0, low), who: name(p), secret: true } }));
    }
    if (phase === "final_reveal") {
      const judged = (f.judged || []).includes(seat);
      const revealed = (f.revealed || []).some((r) => r.seat === seat);
      // FN4: the board keeps a verdict secret until its reveal; the host sees the one this page gave.
      const gave = judged ? judgedHere.get(seat) : null;
      slots.push(act(`final_right:${seat}`, gave === "right" ? `${T.right} ✓` : T.right, "/sg/final/judge", [seat, "right"],
                     eligible && !judged, { cls: "right" }));
      slots.push(act(`final_wrong:${seat}`, gave === "wrong" ? `${T.wrong} ✓` : T.wrong, "/sg/final/judge", [seat, "wrong"],
                     eligible && !judged, { cls: "wrong" }));
      slots.push(act(`final_reveal:${seat}`, T.reveal_seat, "/sg/final/reveal", [seat], eligible && judged && !revealed));
    }
    if (phase === "reveal" || phase === "game_over") {
      const last = s.last || {};
      const mine = (last.answers || []).find((a) => a.seat === seat);
      const other = mine && mine.verdict === "right" ? "wrong" : "right";
      slots.push(act(`rejudge:${seat}`, mine ? (other === "right" ? T.rejudge_right : T.rejudge_wrong) : "—",
                     "/sg/rejudge", [seat, other], !!(mine && last.rejudgeable)));
    }
    if (phase !== "setup" && phase !== "game_over") {
      slots.push(act(`adjust:${seat}`, T.adjust, "/sg/score/adjust", [seat], true,
                     { amount: { low: -100000, high: 100000, who: name(p), signed: true } }));
    }
    return slots;
  }

  function toolSlots(s) {
    const during = !["setup", "game_over"].includes(s.phase);
    const q = s.question || {};
    const media = q.media && q.media.length;
    return [
      act("undo", undoLabel(s), "/sg/undo", [], true, { cls: "wide" }),
      s.paused ? act("pause", T.unpause, "/sg/unpause", [], during) : act("pause", T.pause, "/sg/pause", [], during),
      act("manual", s.buttons_manual ? T.manual_off : T.manual_on, "/sg/buttons/manual", [s.buttons_manual ? 0 : 1], during),
      act("media_pause", T.media_pause, "/sg/media/pause", [], !!media),
      act("media_play", T.media_play, "/sg/media/play", [], !!media),
      act("media_replay", T.media_replay, "/sg/media/replay", [], !!media),
      act("mark_auction", markAuction ? T.auction_marked : T.mark_auction, null, [],
          ["round_intro", "choosing", "reveal"].includes(s.phase) && s.order !== "sequential", { local: true }),
      act("waive", T.waive, "/sg/auction/waive", [],
          ["round_intro", "choosing", "reveal"].includes(s.phase) && !!(s.round || {}).auctions_missing && !(s.round || {}).auction_waived),
      act("show_board", T.show_board, "/sg/screen", ["board"], during && s.screen !== "board"),
      act("show_scene", `${T.screen}: ${T.screens[scene] || scene}`, "/sg/screen",
          [scene], s.phase !== "setup" && s.screen !== scene),
    ];
  }

  function undoLabel(s) {
    const last = s.last || s.question || {};
    const answers = last.answers || last.answered || [];
    const a = answers[answers.length - 1];
    if (!a) return T.undo;
    const p = players().find((x) => x.seat === a.seat);
    const delta = a.delta > 0 ? `+${a.delta}` : String(a.delta);
    // The name last: a long one is cut by the ellipsis, never the verdict or the points.
    return `${T.undo}: ${a.verdict === "right" ? T.right : T.wrong}, ${delta} — ${p ? name(p) : a.seat}`;
  }

  return { use, flow: flowSlots, grid: gridCells, seat: seatSlots, tools: toolSlots };
})();
