// Save files (.tyw, issue 7): gzip of JSON holding the game's identity (data fingerprint, scenario,
// options, seed) and its ordered actions in text notation, with a hash chain over them. Loading replays the
// actions through the engine: the state is never read from the file (design principles 2-3).
// The format is documented in docs/saves.md.
#pragma once

#include "rules/game.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace wp::save {

constexpr int kFormatVersion = 1; // the newest format this build writes and reads

// gzip (RFC 1952, so `zcat game.tyw` works) with zlib's deflate. decompress() refuses anything that is
// not one complete gzip member and says why ("not gzip", "truncated", "corrupt: <zlib message>").
QByteArray gzipCompress(const QByteArray& raw);
bool gzipDecompress(const QByteArray& gz, QByteArray* raw, QString* error);

// Hash chain over the actions: link[0] = SHA-256 of the game's identity, link[i+1] = SHA-256(link[i],
// action i). Hex strings.
QByteArray chainStart(const QByteArray& fingerprint, const QString& scenario, const QStringList& options,
                      uint64_t seed);
QByteArray chainNext(const QByteArray& link, const QString& action);

struct SaveGame {
    int format = kFormatVersion;
    QString appVersion;
    QByteArray fingerprint; // GameData::fingerprint of the data the game was played with
    QString scenario;
    QStringList options; // "key=value", as rules::optionList()
    uint64_t seed = 1;
    QStringList actions; // in notation, in order
    QString result;      // informative ("Catholic Major Victory ..."); never trusted
    QJsonObject extra;   // other tools' sections (the PBEM session), kept as they are
};

// Everything a save needs from a game in progress.
SaveGame fromGame(const rules::Game& game);

// The file's bytes (gzip of JSON) and back. parse() checks structure and version, not legality; `name`
// stands for the file in messages ("game.tyw: $.actions[3]: expected a string").
QByteArray serialize(const SaveGame& g);
std::optional<SaveGame> parse(const QByteArray& bytes, const QString& name, QString* error);

// Atomic write (QSaveFile): on any failure the existing file is left untouched.
bool writeFile(const QString& path, const SaveGame& g, QString* error);
std::optional<SaveGame> readFile(const QString& path, QString* error);

// Replays the save into `game` (a new Game on the same data): checks the data fingerprint, starts the
// scenario and plays the first `upto` actions (all of them when upto < 0). On the first problem returns
// false with a message naming the file, the place and the problem (the action's index, its text and the
// engine's reason for an illegal one).
bool replay(const SaveGame& g, const QString& name, rules::Game& game, QString* error, int upto = -1);

// read + replay: the one call to open a save. The Game is created on `data`.
std::unique_ptr<rules::Game> load(std::shared_ptr<const GameData> data, const QString& path, QString* error);

// A step-through of a saved game (the GUI's "what happened" replay, forward and backward): the states
// before action 0 .. after action size()-1, built once.
class StepReplay {
  public:
    bool open(std::shared_ptr<const GameData> data, const SaveGame& g, const QString& name, QString* error,
              int from = 0);
    int first() const { return m_from; }                           // the first position held
    int size() const { return static_cast<int>(m_states.size()); } // positions held
    int position() const { return m_pos; }                         // actions applied at the current position
    bool seek(int actionsApplied);                                 // m_from <= n <= m_from + size() - 1
    bool forward() { return seek(m_pos + 1); }
    bool backward() { return seek(m_pos - 1); }
    const rules::GameState& state() const { return m_states[static_cast<size_t>(m_pos - m_from)]; }
    QString actionBefore() const;  // the action that led to the current position ("" at the first)
    QStringList logBefore() const; // the log lines it produced

  private:
    std::vector<rules::GameState> m_states;
    std::vector<QStringList> m_logs; // per position: the lines of the action that led to it
    QStringList m_actions;
    int m_from = 0, m_pos = 0;
};

} // namespace wp::save
