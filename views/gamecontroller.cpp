#include "gamecontroller.h"

#include "ai/player.h"
#include "ai/referee.h"
#include "describe.h"
#include "save/savefile.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QThread>
#include <QTimer>

namespace wp {

using namespace rules;

QString seatId(SeatKind k) {
    switch (k) {
    case SeatKind::Human:
        return QStringLiteral("human");
    case SeatKind::Computer:
        return QStringLiteral("computer");
    case SeatKind::Remote:
        return QStringLiteral("remote");
    }
    return {};
}

GameController::GameController(std::shared_ptr<const GameData> data, QObject* parent)
    : QObject(parent), m_data(std::move(data)) {}

GameController::~GameController() {
    if (m_aiCancel)
        *m_aiCancel = true; // a decision under way stops at its next iteration; its result is dropped
}

QString GameController::describe(const Action& a) const {
    return m_game ? describeAction(*m_data, state(), a) : QString();
}

QString GameController::phaseName(const GameState& s) {
    if (s.gameOver)
        return QStringLiteral("Game over");
    if (s.frames.empty())
        return {};
    const auto* t = std::get_if<TurnFrame>(&s.frames.front());
    if (!t)
        return {};
    switch (t->phase) {
    case Phase::Wallenstein:
        return QStringLiteral("A. Wallenstein Phase");
    case Phase::Recovery:
        return QStringLiteral("B. Recovery Phase");
    case Phase::Draw:
        return QStringLiteral("C. Card Draw Phase");
    case Phase::Action:
        return QStringLiteral("D. Action Phase");
    case Phase::Pay:
        return QStringLiteral("E. Pay Phase");
    case Phase::End:
    case Phase::Revolt:
        return QStringLiteral("F. End Phase");
    case Phase::EndOfTurn:
        return QStringLiteral("G. End of Turn");
    case Phase::GameOver:
        return QStringLiteral("Game over");
    }
    return {};
}

const Log& GameController::log() const {
    static const Log empty;
    if (m_pbem)
        return m_pbemLog;
    return m_game ? m_game->log() : empty;
}

void GameController::refresh() {
    if (m_pbem)
        m_legal = m_pbem->legalActions(); // empty unless this side may act now
    else
        m_legal = m_game ? m_game->legalActions() : std::vector<Action>{};
    ++m_aiTicket; // a decision under way is for the old state: it will not be played
    if (m_aiCancel)
        *m_aiCancel = true;
    QTimer::singleShot(0, this, &GameController::runComputerIfDue);
}

void GameController::setUpComputers(const QString& bot, quint64 seed) {
    for (int side : {0, 1}) {
        m_ai[side].reset();
        if (m_seats[side] != SeatKind::Computer)
            continue;
        QString error;
        std::unique_ptr<ai::Bot> b = ai::makeBot(bot, seed + static_cast<quint64>(side), &error);
        if (!b) // an unknown bot name: the priority bot always exists
            b = ai::makeBot(QStringLiteral("priority"), seed, &error);
        // The search keeps its one thread here (no setThreads): on two threads (root parallelisation,
        // `tournament --threads 2`) it was no stronger and its decisions were already quick on one
        // (docs/ai.md "Two threads"), and the other core keeps the window responsive.
        m_ai[side] = std::make_shared<ai::AiPlayer>(side, std::move(b));
        // The Computer dock in words: "P5 · Activate Mansfeld at Pilsen" rather than "play P5 act mansfeld".
        m_ai[side]->setDescriber([](const GameData& d, const rules::GameState& s, const rules::Action& a) {
            const QString words = describeAction(d, s, a);
            return a.kind == rules::ActionKind::PlayCard && a.card >= 0 && a.card < d.cards.size()
                       ? QStringLiteral("%1 · %2").arg(d.cards[a.card].id, words)
                       : words;
        });
    }
}

QStringList GameController::computerReasons() const {
    QStringList out;
    for (int side : {0, 1})
        if (m_ai[side])
            out << m_ai[side]->recentReasons(20);
    return out;
}

void GameController::runComputerIfDue() {
    if (!m_game || m_aiRunning || state().gameOver)
        return;
    const int side = actor();
    if (side < 0 || side > 1 || m_seats[side] != SeatKind::Computer || !m_ai[side])
        return;
    // The tabletop decisions of linked battles are the referee's, from the real state (model/ai/referee.h).
    if (const std::optional<ai::Decision> table = ai::tableDecision(m_game->engine(), state(), side)) {
        const rules::Action action = table->action;
        // the referee enters the auto-resolved battle: its result goes with its record, as from the dialog
        QString attachment, ignore;
        if (action.kind == ActionKind::Choose &&
            (action.target == kBattleWonByAttacker || action.target == kBattleWonByDefender))
            battle::autoRecord(*m_data, state(), &attachment, &ignore);
        QTimer::singleShot(0, this, [this, action, attachment, ticket = m_aiTicket] {
            if (ticket == m_aiTicket && m_game)
                submit(action, nullptr, attachment);
        });
        return;
    }
    // The view is built here, on the thread that owns the game; the worker only reads its own copy.
    auto player = m_ai[side];
    auto view = std::make_shared<ai::SideView>(player->viewOf(m_game->engine(), state()));
    auto result = std::make_shared<ai::Decision>();
    m_aiCancel = std::make_shared<std::atomic<bool>>(false);
    m_aiProgress = std::make_shared<std::atomic<double>>(0.0);
    ai::Controls controls;
    controls.cancel = m_aiCancel.get();
    controls.progress = [progress = m_aiProgress](double f) { progress->store(f); };
    auto cancel = m_aiCancel; // kept alive by the worker
    const quint64 ticket = m_aiTicket;
    auto progress = m_aiProgress; // kept alive by the worker
    QThread* worker = QThread::create(
        [player, view, result, controls, cancel, progress] { *result = player->decide(*view, controls); });
    m_aiRunning = true;
    emit computerThinkingChanged(true);
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    connect(worker, &QThread::finished, this, [this, result, ticket] {
        m_aiRunning = false;
        emit computerThinkingChanged(false);
        if (ticket == m_aiTicket && m_game) // nothing changed while it thought (no undo, load, new game)
            submit(result->action);
        else
            runComputerIfDue();
    });
    worker->start();
}

void GameController::hurryComputer() {
    if (m_aiRunning && m_aiCancel)
        *m_aiCancel = true; // the ticket stays: the best move found so far is played
}

bool GameController::start(const NewGameSetup& setup, QString* error) {
    auto g = std::make_unique<Game>(m_data);
    if (!g->start(setup.scenario, setup.options, setup.seed, error))
        return false;
    m_game = std::move(g);
    m_pbem.reset();
    m_pbemDir.clear();
    m_pbemLog.clear();
    m_seats[0] = setup.seats[0];
    m_seats[1] = setup.seats[1];
    m_coverHands = setup.coverHands;
    setUpComputers(setup.computerBot, setup.seed);
    m_replayable = true;
    m_file.clear();
    refresh();
    emit gameStarted();
    emit changed();
    return true;
}

void GameController::startFrom(const GameState& s, const QString& scenario, const GameOptions& options,
                               quint64 seed) {
    m_game = std::make_unique<Game>(m_data);
    m_game->startFrom(s, scenario, options, seed);
    m_pbem.reset();
    m_pbemDir.clear();
    m_pbemLog.clear();
    m_seats[0] = m_seats[1] = SeatKind::Human;
    m_ai[0].reset();
    m_ai[1].reset();
    m_replayable = false;
    m_file.clear();
    refresh();
    emit gameStarted();
    emit changed();
}

QStringList GameController::actionTexts() const {
    if (m_pbem)
        return m_pbem->allActions() + m_pbem->pendingActions();
    return m_game ? m_game->actions() : QStringList();
}

bool GameController::battleHistory(QList<battle::BattleRecord>* out, QString* error) const {
    if (!m_game) {
        *error = QStringLiteral("No game is open.");
        return false;
    }
    if (m_pbem) {
        std::vector<GameState> states;
        QStringList texts;
        std::vector<Log> logs;
        if (!m_pbem->stepStates(0, &states, &texts, error, &logs))
            return false;
        battle::BattleReporter reporter(m_pbem->engine());
        for (qsizetype k = 0; k < texts.size() && k + 1 < static_cast<qsizetype>(states.size()); ++k)
            reporter.add(static_cast<int>(k), states[static_cast<size_t>(k)], texts[k],
                         logs[static_cast<size_t>(k)], states[static_cast<size_t>(k + 1)]);
        *out = reporter.battles();
        return true;
    }
    if (!m_replayable) {
        *error = QStringLiteral("This game was started from a constructed position: its battles cannot be "
                                "listed from its start.");
        return false;
    }
    GameState start;
    if (!m_game->engine().newGame(start, m_game->scenario(), m_game->options(), m_game->seed(), error))
        return false;
    return battle::battleReport(m_game->engine(), start, m_game->actions(), out, error);
}

bool GameController::submit(const Action& a, QString* error, const QString& attachment) {
    if (!m_game)
        return false;
    if (std::find(m_legal.begin(), m_legal.end(), a) == m_legal.end()) {
        if (error)
            *error = QStringLiteral("That is not a legal action now.");
        return false;
    }
    const qsizetype before = static_cast<qsizetype>(log().size());
    if (m_pbem) {
        // This side's action goes into the session (which re-seeds the dice from the committed
        // randomness); the window's game is then the session's view again.
        const GameState was = m_pbem->state();
        const QString text = formatAction(*m_data, was, a);
        const int side = m_pbem->mySide();
        const qsizetype pendingBefore = m_pbem->pendingActions().size();
        bool sealed = false;
        ApplyResult r = m_pbem->play(a, &sealed, attachment);
        if (!r.ok) {
            if (error)
                *error = r.error;
            return false;
        }
        if (sealed) {
            m_pbemLog.push_back({QStringLiteral("%1 — its dice are sealed: the opponent's copy rolls them "
                                                "with randomness you cannot know, and his file brings the "
                                                "result")
                                     .arg(text),
                                 static_cast<int8_t>(side)});
        } else {
            // The log lines: the same action on a copy; its lines are shown only if the copy ended in
            // the same public state (no dice, or the same dice), else just the action.
            GameState copy = was;
            Log lines;
            const bool same = m_game->engine().apply(copy, a, &lines).ok &&
                              save::publicDigest(copy) == save::publicDigest(m_pbem->state());
            m_pbemLog.push_back({text, static_cast<int8_t>(side)});
            if (same)
                m_pbemLog.insert(m_pbemLog.end(), lines.begin(), lines.end());
        }
        const QStringList pending = m_pbem->pendingActions(); // then the opponent's standing orders (pbem.md)
        for (qsizetype k = pendingBefore + 1; k < pending.size(); ++k)
            m_pbemLog.push_back({pending[k] + QStringLiteral("   (for the opponent, by his standing orders)"),
                                 static_cast<int8_t>(1 - side)});
        QString saveError;
        if (!m_pbem->saveTo(m_pbemDir, &saveError) && error)
            *error = saveError; // played, but not kept on disk: the window says so
        syncPbem();
        emit actionPlayed(a, before);
        emit changed();
        return saveError.isEmpty();
    }
    ApplyResult r = m_game->play(a, attachment);
    if (!r.ok) {
        if (error)
            *error = r.error;
        return false;
    }
    refresh();
    emit actionPlayed(a, before);
    emit changed();
    return true;
}

bool GameController::undo() {
    if (!m_game || !m_game->undo())
        return false;
    refresh();
    emit changed();
    return true;
}

bool GameController::save(const QString& file, QString* error) {
    if (!m_game)
        return false;
    if (!m_replayable) {
        if (error)
            *error = QStringLiteral(
                "This game was started from a constructed position, which cannot be saved yet.");
        return false;
    }
    // The .tyw format of model/save (docs/saves.md): gzip of JSON, the action log and its hash chain.
    save::SaveGame g = save::fromGame(*m_game);
    g.extra.insert(QStringLiteral("seats"), QJsonArray{seatId(m_seats[0]), seatId(m_seats[1])});
    if (!save::writeFile(file, g, error))
        return false;
    m_file = file;
    return true;
}

bool GameController::autosave(const QString& file, QString* error) {
    if (!m_game || !m_replayable || m_pbem)
        return false;
    save::SaveGame g = save::fromGame(*m_game);
    g.extra.insert(QStringLiteral("seats"), QJsonArray{seatId(m_seats[0]), seatId(m_seats[1])});
    QDir().mkpath(QFileInfo(file).absolutePath());
    return save::writeFile(file, g, error);
}

bool GameController::load(const QString& file, QString* error) {
    const std::optional<save::SaveGame> g = save::readFile(file, error);
    if (!g)
        return false;
    auto game = std::make_unique<Game>(m_data);
    if (!save::replay(*g, file, *game, error)) // the fingerprint, then every action through the engine
        return false;
    m_game = std::move(game);
    m_pbem.reset();
    m_pbemDir.clear();
    m_pbemLog.clear();
    m_seats[0] = m_seats[1] = SeatKind::Human;
    const QJsonArray seats = g->extra.value(QStringLiteral("seats")).toArray();
    for (int side = 0; side < 2 && side < seats.size(); ++side)
        for (SeatKind k : {SeatKind::Human, SeatKind::Computer, SeatKind::Remote})
            if (seats[side].toString() == seatId(k))
                m_seats[side] = k;
    setUpComputers(QStringLiteral("search"), m_game->seed());
    m_replayable = true;
    m_file = file;
    refresh();
    emit gameStarted();
    emit changed();
    return true;
}

// ---- play by e-mail

void GameController::syncPbem() {
    m_ai[0].reset();
    m_ai[1].reset();
    const int me = m_pbem->mySide();
    m_seats[me] = SeatKind::Human;
    m_seats[1 - me] = SeatKind::Remote;
    m_coverHands = false;
    m_replayable = false;
    m_file.clear();
    if (m_pbem->started()) {
        const GameState& v = m_pbem->state();
        auto g = std::make_unique<Game>(m_data);
        g->startFrom(v, v.scenario, {}, 0);
        m_game = std::move(g);
    } else {
        m_game.reset(); // the start files are still being exchanged
    }
    refresh();
}

bool GameController::newPbem(const QString& scenario, const QStringList& options, int side,
                             save::DiceMode dice, const QString& dir, QByteArray* startFile, QString* error) {
    auto session = std::make_unique<save::PbemSession>(m_data);
    if (!session->create(scenario, options, side, dice, startFile, error))
        return false;
    if (!QDir().mkpath(dir) || !session->saveTo(dir, error)) {
        if (error && error->isEmpty())
            *error = QStringLiteral("%1: cannot create the directory").arg(dir);
        return false;
    }
    m_pbem = std::move(session);
    m_pbemDir = dir;
    m_pbemLog.clear();
    syncPbem();
    emit gameStarted();
    emit changed();
    return true;
}

bool GameController::joinPbem(const QByteArray& startFile, const QString& name, const QString& dir,
                              QByteArray* joinFile, QString* error) {
    auto session = std::make_unique<save::PbemSession>(m_data);
    if (!session->join(startFile, name, joinFile, error))
        return false;
    if (!QDir().mkpath(dir) || !session->saveTo(dir, error)) {
        if (error && error->isEmpty())
            *error = QStringLiteral("%1: cannot create the directory").arg(dir);
        return false;
    }
    m_pbem = std::move(session);
    m_pbemDir = dir;
    m_pbemLog.clear();
    syncPbem();
    emit gameStarted();
    emit changed();
    return true;
}

bool GameController::openPbem(const QString& dir, QString* error) {
    auto session = std::make_unique<save::PbemSession>(m_data);
    if (!session->loadFrom(dir, error))
        return false;
    Log log;
    if (session->started()) {
        // The log so far: every resolved action, in words of the notation, by its author.
        std::vector<GameState> states;
        QStringList texts;
        QString why;
        if (session->stepStates(0, &states, &texts, &why)) {
            const Engine& e = session->engine();
            for (int k = 0; k < texts.size() && k < static_cast<int>(states.size()); ++k)
                log.push_back({texts[k], static_cast<int8_t>(e.actor(states[static_cast<size_t>(k)]))});
        }
        for (const QString& p : session->pendingActions())
            log.push_back({p + QStringLiteral("   (not sent yet)"), static_cast<int8_t>(session->mySide())});
    }
    m_pbem = std::move(session);
    m_pbemDir = dir;
    m_pbemLog = std::move(log);
    syncPbem();
    emit gameStarted();
    emit changed();
    return true;
}

TurnImport GameController::importTurn(const QByteArray& bytes, const QString& name) {
    TurnImport r;
    r.file = name;
    if (!m_pbem) {
        r.error = QStringLiteral("No game by e-mail is open.");
        return r;
    }
    // Who wrote it and its number, for the report (the session checks everything itself).
    QByteArray raw;
    QString why;
    if (save::gzipDecompress(bytes, &raw, &why)) {
        const QJsonObject o = QJsonDocument::fromJson(raw).object();
        const QString from = o.value(QStringLiteral("from")).toString();
        r.fromSide = from == QLatin1String("catholic")     ? kCatholic
                     : from == QLatin1String("protestant") ? kProtestant
                                                           : o.value(QStringLiteral("from")).toInt(-1);
        r.seq = o.value(QStringLiteral("seq")).toInt();
    }
    const int before = static_cast<int>(m_pbem->allActions().size());
    r.fromAction = before;
    QString error;
    if (!m_pbem->importFile(bytes, name, &error, &r.happened)) {
        r.error = error;
        r.status = m_pbem->status();
        return r;
    }
    r.ok = true;
    r.actions = static_cast<int>(m_pbem->allActions().size()) - before;
    if (!m_pbem->saveTo(m_pbemDir, &error))
        r.error = QStringLiteral("The file was verified and imported, but the session could not be kept: %1")
                      .arg(error);
    static const QRegularExpression head(QStringLiteral("^\\s*\\d+ \\((Catholic|Protestant)\\): "));
    for (const QString& line : std::as_const(r.happened)) {
        const auto m = head.match(line);
        int8_t side = kNone;
        if (m.hasMatch())
            side = m.captured(1) == QLatin1String("Catholic") ? kCatholic : kProtestant;
        m_pbemLog.push_back({line.trimmed(), side});
    }
    for (const QString& p : m_pbem->pendingActions()) // taken at once for the opponent by his standing orders
        m_pbemLog.push_back({p + QStringLiteral("   (for the opponent, by his standing orders)"),
                             static_cast<int8_t>(1 - m_pbem->mySide())});
    r.status = m_pbem->status();
    syncPbem();
    emit changed();
    return r;
}

bool GameController::setPbemOrders(const save::StandingOrders& orders, QString* error) {
    if (!m_pbem) {
        *error = QStringLiteral("No game by e-mail is open.");
        return false;
    }
    if (!m_pbem->setMyOrders(orders, error) || !m_pbem->saveTo(m_pbemDir, error))
        return false;
    emit changed();
    return true;
}

bool GameController::exportTurn(QByteArray* bytes, QString* fileName, bool reveal, QString* error) {
    if (!m_pbem) {
        *error = QStringLiteral("No game by e-mail is open.");
        return false;
    }
    if (!m_pbem->exportFile(bytes, fileName, reveal, error))
        return false;
    if (!m_pbem->saveTo(m_pbemDir, error))
        return false;
    syncPbem();
    emit changed();
    return true;
}

} // namespace wp
