// The engine's log: every line with its rule number, turn and phase headers, filtered by side; hovering a
// line shows a short summary of the rules it cites.
#pragma once

#include "rules/engine.h"

#include <QAbstractListModel>
#include <QHash>
#include <QWidget>

class QComboBox;
class QListView;

namespace wp {

class LogModel : public QAbstractListModel {
    Q_OBJECT
  public:
    enum Role {
        SideRole = Qt::UserRole + 1,
        RuleRole,
        HeaderRole,
        LineRole
    }; // LineRole: its index in the
       // engine's log (-1: a header)
    explicit LogModel(QObject* parent = nullptr);
    void setLog(const rules::Log& log, int firstTurn);
    void setFilter(int side); // -2 all, -1 general only, 0/1 a side (and general lines)
    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    static QString ruleSummary(const QString& rule);

  private:
    struct Row {
        QString text, rule;
        int side = -1;
        int header = 0; // 0 a line, 1 a turn header, 2 a phase header
        int line = -1;  // the index of the engine's log line
    };
    QList<Row> m_all, m_rows;
    int m_filter = -2;
    void applyFilter();
};

class LogPanel : public QWidget {
    Q_OBJECT
  public:
    explicit LogPanel(QWidget* parent = nullptr);
    void setLog(const rules::Log& log, int firstTurn);
    LogModel* model() const { return m_model; }
    QListView* view() const { return m_view; }
    QComboBox* filter() const { return m_filter; }

  signals:
    // A right click on a log line (its index in the engine's log, -1 for a header): the window offers
    // "Export battle…" for the battle the line belongs to.
    void lineMenuRequested(int line, const QPoint& globalPos);

  private:
    LogModel* m_model;
    QListView* m_view;
    QComboBox* m_filter;
};

} // namespace wp
