// SPDX-License-Identifier: Apache-2.0
// The module tree as an icicle chart: the model on the top row, each module's submodules below
// it, each as wide as its share of its parent's time or memory (switchable); the gap after a
// module's children is its own share. Custom-painted, as Hotspot's flame graph is: hover names
// a module and its figures, a click selects it, a double click zooms into its subtree (its
// ancestors stay on top, full width; double-clicking one zooms back out to it).
#pragma once

#include <QVector>
#include <QWidget>

#include "reading/module_tree.h"

namespace trainscope::ui {

class IcicleChart : public QWidget {
    Q_OBJECT
  public:
    enum class WidthBy { Time, Activations, Weights };

    explicit IcicleChart(QWidget* parent = nullptr);
    // The tree must outlive the chart (or the next setTree()).
    void setTree(const ModuleTree* tree);
    void setWidthBy(WidthBy by);
    WidthBy widthBy() const { return width_by_; }
    void setSelected(int module);
    int selected() const { return selected_; }
    // The subtree of `module` fills the width (the root: the whole tree).
    void zoomTo(int module);
    int zoomed() const { return zoomed_; }
    // The module drawn at `pos` (-1: none), and where a module is drawn (empty: too narrow to
    // draw, or outside the zoomed subtree).
    int moduleAt(const QPointF& pos) const;
    QRectF rectOf(int module) const;
    QString toolTipOf(int module) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void moduleClicked(int module);
    void zoomChanged(int module);

  protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

  private:
    double valueOf(int module) const;
    int rowHeight() const;
    int depthOf(int module) const;
    void layOut();
    QColor colorOf(int module) const;

    const ModuleTree* tree_ = nullptr;
    WidthBy width_by_ = WidthBy::Time;
    int selected_ = -1;
    int zoomed_ = ModuleTree::kRoot;
    int max_depth_ = 0;
    QVector<QRectF> rects_;  // per module
};

}  // namespace trainscope::ui
