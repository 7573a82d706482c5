// Export battle (issue 9): the combat about to be resolved as a Tilly's Very Bad Day v2.0 scenario
// (model/battle exportTvbd) or a Brevis Editio: Tercios one (exportTercios), with a preview of what was
// generated — both sides' commands and units, the terrain drawn on the table, the special rules — and "Save
// JSON…". "Another terrain" changes the seed.
#pragma once

#include "battle/export.h"

#include <QDialog>
#include <QImage>
#include <QJsonObject>

class QCheckBox;
class QComboBox;
class QPainter;
class QLabel;
class QPushButton;
class QTextBrowser;
class QSpinBox;

namespace wp {
namespace rules {
struct GameState;
}
struct GameData;

class TablePreview : public QWidget {
    Q_OBJECT
  public:
    explicit TablePreview(QWidget* parent = nullptr);
    void setScenario(const QJsonObject& o);
    void setAttacker(int side) { m_attacker = side; } // the campaign side of TVBD side 0
    void setTercios(bool on) { m_tercios = on; }      // the Tercios format (inches, regiments)
    QSize sizeHint() const override { return {460, 320}; }
    void paintOn(QPainter& p, const QRectF& r) const; // the table drawn into r (the widget, a PDF, an SVG)
    // The boxes of the names (town, roads, water) of the last drawing, in its device pixels.
    QList<QRectF> nameRects() const { return m_names; }

  protected:
    void paintEvent(QPaintEvent*) override;
    void paintTercios(QPainter& p, const QRectF& r) const;

  private:
    QJsonObject m_o;
    mutable QList<QRectF> m_names; // nameRects()
    int m_attacker = 0;
    bool m_tercios = false;
};

class BattleExportDialog : public QDialog {
    Q_OBJECT
  public:
    explicit BattleExportDialog(QWidget* parent = nullptr);
    // The combat on top of the state's frame stack. False (and the reason shown) when there is none.
    bool setBattle(const GameData& d, const rules::GameState& s, quint64 seed);
    // An explicit battle (a battle description, docs/battle-export.md), with a mapping file (empty: the
    // default); `attacker` is the campaign side attacking (for the colours). False when it cannot export.
    bool setInput(const battle::BattleInput& in, quint64 seed, const QString& mappingPath = QString(),
                  int attacker = 0);
    bool writeTo(const QString& file, QString* error) const;  // the JSON, atomically
    bool writePdf(const QString& file, QString* error) const; // a printable briefing (QPdfWriter)
    bool writeSvg(const QString& file, QString* error) const; // the table map
    // A page of the briefing drawn as in the PDF (for a look without a PDF viewer).
    QImage briefingPage(int index, const QSize& size) const;
    int briefingPages(const QSize& size) const; // how many pages the briefing has at that page size
    // The briefing's text (the dialog's summary; the PDF's pages after the map): the battle (place, date,
    // rules, table, seed), the campaign situation and forces, the orders of battle by command or regiment,
    // the unit profiles, the terrain, the special rules, the victory conditions and, with `roster`, a
    // blank roster and casualty sheet.
    QString briefingHtml(bool roster) const;
    QString subtitle() const; // "Leipzig (Area saxony) · September 1631 · Tilly's Very Bad Day v2.0 · ..."
    const QJsonObject& scenario() const { return m_out; }
    QString error() const { return m_error; }
    QTextBrowser* summary() const { return m_summary; }
    QPushButton* saveButton() const { return m_save; }
    QPushButton* terrainButton() const { return m_terrain; }
    QComboBox* rulesBox() const { return m_rules; } // "tvbd" or "tercios"
    // "The players deploy": the scenario without places (TVBD 10.5-10.6, Tercios L1501-1505; the mapping's
    // "deploy", battle export --deploy).
    QCheckBox* deployBox() const { return m_deploy; }
    const TablePreview* preview() const { return m_preview; }
    bool tercios() const;

  private:
    battle::BattleInput m_in;
    QJsonObject m_out;
    QString m_error;
    quint64 m_seed = 1;
    QString m_mappingPath; // empty: battle::defaultMappingPath()
    int m_attacker = 0;    // the campaign side attacking (TVBD side 0)
    QLabel* m_title;
    TablePreview* m_preview;
    QTextBrowser* m_summary;
    QPushButton* m_save;
    QPushButton* m_terrain;
    QComboBox* m_rules;
    QCheckBox* m_deploy;
    void generate();
    void generateTercios();
    int paintBriefing(QPainter& p, const QRect& page, int index) const; // returns the page count
    void saveAs();
};

} // namespace wp
